from capping import capped

input()
print(capped(sum(map(int, input().split()))))
