#!/usr/bin/env python3
"""Contest judge for TopCoder-style Python solutions. Run `python judge.py --help`."""

from tcjudge.launch import run

if __name__ == "__main__":
    run()
