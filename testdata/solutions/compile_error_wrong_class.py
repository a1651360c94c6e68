# expect: CE
# Names the class wrongly (the judge is told the problem with --problem).
class Addr:
    def add(self, values, factor):
        return sum(values) * factor
