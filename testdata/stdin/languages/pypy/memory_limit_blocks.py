#!/usr/bin/env pypy3
# expect: MLE
# 1 MiB at a time, each written to, kept: past the 256 MiB limit in the kernel's figures.
kept = []
while True:
    kept.append(bytearray(b"\1" * (1 << 20)))
