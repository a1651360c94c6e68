"""Running solutions: the trusted worker (zygote), the judge's side of it, scheduling, isolation.

Kept free of imports: the zygote imports tcjudge.engine.zygote in a bare interpreter.
"""
