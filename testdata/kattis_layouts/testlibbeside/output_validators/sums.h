// A helper header of the checker's: what a right answer is.
#pragma once

inline bool same_sum(long expected, long got) { return expected == got; }
