# The reference: Python's max.
class Largest:
    def largest(self, values):
        return max(values)
