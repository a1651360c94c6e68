# @EXPECTED_RESULTS@: WRONG_ANSWER
print(int(input()) ** 2)
