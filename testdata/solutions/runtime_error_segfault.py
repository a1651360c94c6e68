# expect: RE
# Crashes the interpreter with a segmentation fault.
import ctypes


class Adder:
    def add(self, values, factor):
        return ctypes.string_at(0)
