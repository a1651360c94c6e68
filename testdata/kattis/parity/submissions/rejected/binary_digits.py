# reads the parity off the binary digits, which breaks on a minus sign
# @EXPECTED_RESULTS@: RUN_TIME_ERROR
n = int(input())
print("odd" if int(bin(n)[2:], 2) & 1 else "even")
