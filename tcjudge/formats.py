"""Format versions of the judge's stable file interfaces (docs/stability.md).

A reader of our JSON checks `format_version` before anything else; a field is only ever added
within a version, and removing or changing one raises the version. problem.yaml's optional
`format_version` is checked the same way, so a judge refuses a problem written for a newer format
instead of misreading it.
"""

JSON_FORMAT = 1
PROBLEM_FORMAT = 1


def versioned(data: dict) -> dict:
    """A JSON document of ours, its format version first."""
    return {"format_version": JSON_FORMAT, **data}
