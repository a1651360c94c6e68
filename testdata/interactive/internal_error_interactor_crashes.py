# expect: IE
# Says something that is not a number: the interactor does not handle it and fails, which is the
# problem's fault, never the program's.
print("five hundred", flush=True)
input()
