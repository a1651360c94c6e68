"""A package's time limit when it gives none: computed from its submissions' running times, as the
Kattis/ICPC format defines it (and problemtools computes it).

The slowest test of the submissions that bound the limit from below (the accepted ones; in 2025-09
also wrong_answer/ and run_time_error/: expectations.Expectation.time_limit_tests) times
`ac_to_time_limit`, rounded up to a multiple of `time_resolution` (at least one). Legacy packages
name the multipliers `time_multiplier` (default 5) and `time_safety_margin` (default 2), and round
to whole seconds; 2023-07 and 2025-09 ones say `time_multipliers: {ac_to_time_limit: 2,
time_limit_to_tle: 1.5}` and `time_resolution` (default 1 s). The submissions that must time out
(expectations: an `upper` rule) must still do so at the limit times the TLE margin. The runs that
time the submissions belong to the run owner (runs.settle_time_limit); this module holds the rule.
"""

from __future__ import annotations

import math

from ..record import record

MAX_LIMIT = 60.0  # seconds: the longest time limit a package may have here (kattis.py)
UNSET = "the default: none given, and not computed from the submissions"  # a package's time_limit_from until then


@record(frozen=True)
class Timing:
    ac_to_time_limit: float
    time_limit_to_tle: float
    resolution: float
    words: str  # how the package says it, for messages: "time_multipliers" or "time_multiplier"

    @classmethod
    def read(cls, limits: dict, legacy: bool) -> tuple[Timing | None, str]:
        """The rule from problem.yaml's limits, or (None, why it is not one)."""
        if legacy and "time_multipliers" not in limits:
            values = (limits.get("time_multiplier", 5.0), limits.get("time_safety_margin", 2.0), 1.0)
            words = "time_multiplier"
        else:
            multipliers = limits.get("time_multipliers") or {}
            if not isinstance(multipliers, dict):
                return None, "limits.time_multipliers: expected a mapping"
            values = (multipliers.get("ac_to_time_limit", 2.0), multipliers.get("time_limit_to_tle", 1.5),
                      limits.get("time_resolution", 1.0))
            words = "time_multipliers"
        if not all(type(v) in (int, float) and v > 0 for v in values) or min(values[:2]) < 1:
            return None, f"limits: the multipliers must be numbers of at least 1 and the resolution above 0, got {values}"
        return cls(float(values[0]), float(values[1]), float(values[2]), words), ""

    @property
    def legacy(self) -> bool:
        """A legacy package's rule: only accepted/ submissions bound the limit from below, as
        problemtools computes it (the 2023-07 and 2025-09 formats add every rule without TLE)."""
        return self.words == "time_multiplier"

    @property
    def margin_words(self) -> str:
        """How the package names the TLE margin."""
        return "time_safety_margin" if self.words == "time_multiplier" else "time_multipliers.time_limit_to_tle"

    @property
    def cap(self) -> float:
        """The time limit to time the submissions under: any slower one would ask for a limit over MAX_LIMIT."""
        return MAX_LIMIT / self.ac_to_time_limit

    def limit(self, slowest: float) -> float:
        """The smallest multiple of the resolution (one at least) that is `ac_to_time_limit` x the slowest."""
        steps = max(1, math.ceil(slowest * self.ac_to_time_limit / self.resolution - 1e-9))
        return round(steps * self.resolution, 6)

    def explain(self, slowest: float, where: str) -> str:
        return (f"computed from the submissions: slowest {slowest * 1000:.0f} ms ({where}) x{self.ac_to_time_limit:g}, "
                f"rounded up to a multiple of {self.resolution:g} s ({self.words})")
