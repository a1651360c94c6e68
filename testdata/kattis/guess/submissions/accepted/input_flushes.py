# expect: AC
# print() without flush: input() flushes standard output before it reads, as under python3.
low, high = 1, 1000
while True:
    guess = (low + high) // 2
    print(guess)
    reply = input()
    if reply == "correct":
        break
    low, high = (guess + 1, high) if reply == "higher" else (low, guess - 1)
