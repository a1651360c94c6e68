low, high = 1, 100
while True:
    middle = (low + high) // 2
    print(middle, flush=True)
    said = input()
    if said == "correct":
        break
    if said == "lower":
        high = middle - 1
    else:
        low = middle + 1
