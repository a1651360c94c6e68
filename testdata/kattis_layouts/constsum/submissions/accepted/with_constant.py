input()
print(min({{cap}}, sum(map(int, input().split()))))  # the cap is {{cap.words}}
