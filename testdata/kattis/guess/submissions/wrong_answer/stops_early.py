# expect: WA
# Two guesses, then it ends: the interactor sees the end of its input and rejects.
print(1, flush=True)
print(2, flush=True)
