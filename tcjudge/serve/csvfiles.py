"""The CSV files the judge writes (the coach's exports, `judge accounts`' accounts), written one way."""

from __future__ import annotations

import csv
import io


def csv_text(header: list[str], rows: list[list]) -> str:
    """A CSV file's text, one line a row ending in LF."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
