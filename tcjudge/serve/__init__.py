"""`judge serve`: a practice contest in the browser and through the CLICS API (docs/serve.md).

A floor of its own under the commands: it grades through the run owner (runs.py) and reads the
reports' statements; nothing but its commands imports it. Inside, the server over the app, the app
over the pages over the API over the state they share (state.py), over the parts they use: no
module imports one above it (the serve contract in pyproject.toml).
"""
