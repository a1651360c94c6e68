# Pass 1 is fine; pass 2 fails (int() of a word): a run-time error in pass 2.
command, argument = input().split()
print("xyz" if command == "encode" else int(argument))
