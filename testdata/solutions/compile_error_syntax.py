# expect: CE
# Python 2 syntax.
class Adder:
    def add(self, values, factor):
        print "adding"
        return sum(values) * factor
