# Pass 1 is quick; decoding spins forever: the time limit holds for each pass, so pass 2 is TLE.
command, argument = input().split()
if command == "encode":
    print("b")
else:
    while True:
        pass
