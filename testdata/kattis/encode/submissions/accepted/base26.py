# A number in base 26 with the digits a..z, and back.
command, argument = input().split()
if command == "encode":
    n, word = int(argument), ""
    while True:
        n, digit = divmod(n, 26)
        word = chr(ord("a") + digit) + word
        if n == 0:
            break
    print(word)
else:
    n = 0
    for letter in argument:
        n = n * 26 + ord(letter) - ord("a")
    print(n)
