# Writes the number itself in pass 1: not a word of letters, so pass 1 is wrong (and there is no pass 2).
command, argument = input().split()
print(argument)
