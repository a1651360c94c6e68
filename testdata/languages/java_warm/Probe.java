import java.util.Locale;
import java.util.TimeZone;

// A probe of the JVM that serves a solution's tests (tests/test_java_warm.py): it returns the JVM's
// process id, so a test sees which tests shared a JVM, or -1 when it finds something an earlier
// test left behind (a static that kept its value, a system property, the default locale or time zone).
public class Probe {
    static int calls;
    static final int PLAIN = 0, ALLOCATE = 1, LEAVE_A_THREAD = 2, CHANGE_GLOBALS = 3, EXHAUST_HEAP = 4,
            START_A_THREAD = 5, BIG_STACKS = 6;

    public long probe(int mib, int mode) throws InterruptedException {
        calls++;
        if (calls != 1 || System.getProperty("probe.seen") != null || Locale.getDefault() == Locale.JAPAN
                || TimeZone.getDefault().getID().equals("Pacific/Chatham")) return -1;
        if (mode == ALLOCATE) {
            byte[][] blocks = new byte[mib][];
            for (int k = 0; k < mib; k++) {
                blocks[k] = new byte[1 << 20];
                for (int i = 0; i < blocks[k].length; i += 4096) blocks[k][i] = 1;
            }
            if (blocks[mib - 1][0] != 1) return -2;
        } else if (mode == LEAVE_A_THREAD) {
            new Thread(() -> { while (true) { calls++; } }).start();
        } else if (mode == CHANGE_GLOBALS) {
            System.setProperty("probe.seen", "yes");
            Locale.setDefault(Locale.JAPAN);
            TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
        } else if (mode == START_A_THREAD) { // deep recursion's usual way: a thread with a big stack, joined
            Thread deep = new Thread(null, () -> calls++, "deep", 512L << 20);
            deep.start();
            deep.join();
        } else if (mode == BIG_STACKS) { // two 512 MiB stacks one after another, then one of 1 GiB
            for (long size : new long[] {512L << 20, 512L << 20, 1L << 30}) {
                Thread deep = new Thread(null, () -> calls++, "deep", size);
                deep.start();
                deep.join();
            }
        } else if (mode == EXHAUST_HEAP) {
            java.util.List<long[]> held = new java.util.ArrayList<>();
            while (true) held.add(new long[1 << 20]);
        }
        return ProcessHandle.current().pid();
    }
}
