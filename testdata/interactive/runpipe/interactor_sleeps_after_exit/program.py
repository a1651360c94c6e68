# expect: IE
# Ends at once; the interactor never decides.
print("done", flush=True)
