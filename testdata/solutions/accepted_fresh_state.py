# expect: AC
# Keeps state in a module global and a class attribute: correct only if every test gets a fresh process.
calls = []


class Adder:
    seen = 0

    def add(self, values, factor):
        calls.append(1)
        Adder.seen += 1
        assert len(calls) == 1 and Adder.seen == 1, "state leaked from an earlier test"
        return sum(values) * factor
