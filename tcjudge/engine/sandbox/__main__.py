"""`python -m tcjudge.engine.sandbox`: print what this machine offers (for `judge.py doctor`)."""

from . import probe, warning_line

if __name__ == "__main__":
    layers = probe()
    for layer in layers:
        print(f"{'on ' if layer.active else 'OFF'}  {layer.name:15} {layer.detail}")
    line = warning_line(layers)
    if line:
        print(line)
