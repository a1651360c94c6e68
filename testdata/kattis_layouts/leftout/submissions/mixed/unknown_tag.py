# @EXPECTED_RESULTS@: WRONG_ANSWER, SLOW
print(3 * int(input()))
