#!/usr/bin/env pypy3
# expect: CE
print("unclosed"
