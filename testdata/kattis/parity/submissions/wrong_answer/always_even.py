# @EXPECTED_RESULTS@: CORRECT
# (a tag in one of the four legacy folders is ignored, as DOMjudge ignores it: the folder says WA)
input()
print("even")
