// expect: TLE
// Runs before the clock starts, if it can: declares the judge's runtime package and a class
// Thread, which (compiled with the judge's entry class) would be the Thread the entry creates
// before it says "ready". Its constructor burns 2 s of CPU, then the right answer comes at once:
// AC with a few ms charged while the runtime shared the solution's package. The runtime is now
// compiled on its own and the solution loaded by a class loader of its own: the entry's Thread is
// java.lang.Thread, and add's own use of this class burns the 2 s where they are charged.
package tcjudge;

class Thread extends java.lang.Thread {
    static final long BURNT = burn(2_000_000_000L);

    Thread(ThreadGroup group, Runnable task, String name, long stack) {
        super(group, task, name, stack);
    }

    static long burn(long nanos) {  // CPU time of this thread, whatever else the machine runs
        java.lang.management.ThreadMXBean clock = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = clock.getCurrentThreadCpuTime() + nanos, spins = 0;
        while (clock.getCurrentThreadCpuTime() < end) spins++;
        return spins;
    }
}

public class Adder {
    public long add(int[] values, int factor) {
        long total = Thread.BURNT * 0;
        for (int v : values) total += (long) v * factor;
        return total;
    }
}
