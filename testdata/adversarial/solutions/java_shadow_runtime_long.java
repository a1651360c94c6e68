// expect: TLE
// threat: (1) run before the clock starts: declare the judge's runtime package (`package tcjudge`)
//   and a class named Long in it. Compiled together with the judge's entry class, that class hides
//   java.lang.Long there, so the entry calls our Long.parseLong before it says "ready", and our
//   static initialiser burns 4 s of CPU in time the judge does not charge.
// why: the runtime is compiled once, on its own, and the solution's classes are loaded by a class
//   loader of their own (the runtime's loader is its parent, asked first): the entry's Long is
//   java.lang.Long, nothing of this file runs before "ready", and the 4 s are burnt on the first
//   call of open, where they are charged (TLE). Before: the burn came before "ready" and was not
//   charged, and open answered at once (WA, a few ms of CPU).
package tcjudge;

final class Long {
    static final long MAX_VALUE = java.lang.Long.MAX_VALUE;
    static final long BURNT = burn(4_000_000_000L);

    static long burn(long nanos) {  // CPU time of this thread, whatever else the machine runs
        java.lang.management.ThreadMXBean clock = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = clock.getCurrentThreadCpuTime() + nanos, spins = 0;
        while (clock.getCurrentThreadCpuTime() < end) spins++;
        return spins;
    }

    static long parseLong(String text) {
        return java.lang.Long.parseLong(text) + BURNT * 0;
    }
}

public class Vault {
    public long open(int seed) {
        return Long.BURNT * 0 + seed;
    }
}
