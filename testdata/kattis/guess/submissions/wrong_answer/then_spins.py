# expect: WA
# Eleven wrong guesses (the interactor rejects after ten), then an endless loop: the interactor's
# rejection came while the program ran, so it stands (WA beats the later TLE).
for _ in range(11):
    print(1, flush=True)
while True:
    pass
