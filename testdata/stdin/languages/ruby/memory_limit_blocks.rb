# expect: MLE
# 1 MiB at a time, each written to, kept: past the 256 MiB limit in the kernel's figures.
kept = []
loop { kept << ("x" * (1 << 20)) }
