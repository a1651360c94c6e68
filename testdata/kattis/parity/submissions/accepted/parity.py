print("odd" if int(input()) % 2 else "even")
