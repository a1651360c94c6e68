# No main.py: the one file that runs itself as a script is the entry.
import numbers_io


def answer():
    a, b = numbers_io.read_pair()
    return a * b


if __name__ == "__main__":
    print(answer())
