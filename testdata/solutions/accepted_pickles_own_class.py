# expect: AC
# Pickles and deep-copies an instance of its own class, which works under `python3 solution.py`:
# pickle finds the class through sys.modules[cls.__module__]. Also reads sys.argv[0] as a script may.
import copy
import pickle
import sys


class Total:
    def __init__(self, value):
        self.value = value


class Adder:
    def add(self, values, factor):
        assert sys.argv[0].endswith(".py") and len(sys.argv) == 1, sys.argv
        total = pickle.loads(pickle.dumps(Total(sum(values))))
        return copy.deepcopy(total).value * factor
