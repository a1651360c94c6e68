"""Errors that are the user's to fix: the CLI prints them as one line and exits 2, never a traceback."""

from __future__ import annotations

from pathlib import Path


class JudgeInputError(Exception):
    """Bad input from the user: an unknown problem, an unreadable file, a malformed or invalid test."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        return where + self.message
