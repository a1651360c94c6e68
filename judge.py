#!/usr/bin/env python3
"""Contest judge for TopCoder-style Python solutions. Run `python judge.py --help`."""

import sys

from tcjudge.cli import main

if __name__ == "__main__":
    sys.exit(main())
