"""A contest judge for TopCoder-style solutions in Python, C++ and Java, standard-input problems and
Kattis packages: problems, confined test runs, verdicts and reports."""

__version__ = "0.3.0"
