print(50, flush=True)
input()
raise RuntimeError("no second guess")
