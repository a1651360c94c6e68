"""A judge for TopCoder-style Python solutions: problems, isolated test runs, verdicts and reports."""
