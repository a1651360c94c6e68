"""`judge serve`: a practice contest in the browser and through the CLICS API (docs/serve.md).

A floor of its own under the commands: it grades through the run owner (runs.py) and reads the
reports' statements; nothing but its commands imports it.
"""
