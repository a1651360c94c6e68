"""The problem setter's toolkit: validate, stress, calibrate, challenge and new (judge.py commands)."""
