// expect: TLE
// Takes over the JVM that serves a method's tests: through sun.misc.Unsafe (which a plain JVM gives
// every program) it makes a FileDescriptor of the runtime's result channel, descriptor 1, and reads
// the zygote's lines on descriptor 0 (FileDescriptor.in) itself. It answers its first test on the
// channel, then never returns: it reads "next", spends twice the time limit of CPU, says "ready",
// reads the next test's arguments and answers them, and so on, its statics kept from test to test.
// The answers are right, so only the CPU decides: before, the zygote charged a warm JVM's test from
// its "ready" on, and every test was AC at a few milliseconds; the CPU spent between a test's end and
// the next one's end is that next test's, so the second test is TLE.
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;

public class Adder {
    static final double LIMIT_SECONDS = 0.5; // the adder problem's time limit
    static int tests = 0; // kept across tests while the takeover lasts

    public long add(int[] values, int factor) throws Exception {
        OutputStream channel = new FileOutputStream(descriptor(1));
        InputStream zygote = new FileInputStream(FileDescriptor.in);
        long answer = sum(values, factor);
        while (true) {
            tests++;
            send(channel, "{\"kind\":\"return\",\"value\":" + answer + "}");
            if (!"next".equals(line(zygote))) Runtime.getRuntime().halt(0);
            burn(2 * LIMIT_SECONDS);
            send(channel, "ready");
            String args = line(zygote);
            if (args == null) Runtime.getRuntime().halt(0);
            answer = answer(args);
            System.err.println("test " + (tests + 1) + " answered by the first one's call");
        }
    }

    static long sum(int[] values, int factor) {
        long total = 0;
        for (int v : values) total += (long) v * factor;
        return total;
    }

    /** The adder's arguments as the zygote sends them: [[v1, v2, ...], factor]. */
    static long answer(String args) {
        int open = args.indexOf('[', 1), close = args.indexOf(']', open);
        String inner = args.substring(open + 1, close).trim();
        int factor = Integer.parseInt(args.substring(args.indexOf(',', close) + 1, args.lastIndexOf(']')).trim());
        long total = 0;
        if (!inner.isEmpty()) {
            for (String value : inner.split(",")) total += Long.parseLong(value.trim()) * factor;
        }
        return total;
    }

    static FileDescriptor descriptor(int number) throws ReflectiveOperationException {
        Field field = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        field.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) field.get(null);
        FileDescriptor made = new FileDescriptor();
        unsafe.putInt(made, unsafe.objectFieldOffset(FileDescriptor.class.getDeclaredField("fd")), number);
        return made;
    }

    static void burn(double seconds) {
        var clock = ManagementFactory.getThreadMXBean();
        long until = clock.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        long spin = 0;
        while (clock.getCurrentThreadCpuTime() < until) spin++;
        if (spin == -1) System.err.println(spin);
    }

    static void send(OutputStream channel, String line) throws IOException {
        channel.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        channel.flush();
    }

    static String line(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) return null;
            text.append((char) c);
        }
        return text.toString();
    }
}
