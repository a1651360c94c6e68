// The descriptors a Java solution's process holds once its own code runs (tests/test_descriptors.py),
// as a method solution and as a program: the class's static initializer writes one line per open
// descriptor on standard error, "fd N KIND"; add and main then fail (RE), so that the judge keeps
// what was written. Java names no descriptor by number: a FileDescriptor is given each number through
// sun.misc.Unsafe (as any solution can) and asked available(), which fails on a closed one ("Bad file
// descriptor"). KIND: pipe (it cannot seek), image (the JDK's module image: its magic, 0xCAFEDADA,
// which the JVM opens itself after the exec), empty (/dev/null), file. Numbers up to 1023 only: each
// closed one costs an exception (all 65536 took 0.55 s of the test's CPU), and the descriptors a JVM
// is given are set up as the C, C++ and Python ones are, which are probed to 65535.
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.reflect.Field;

public class Adder {
    static {
        try {
            Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            sun.misc.Unsafe unsafe = (sun.misc.Unsafe) field.get(null);
            long number = unsafe.objectFieldOffset(FileDescriptor.class.getDeclaredField("fd"));
            for (int fd = 0; fd < 1024; fd++) {
                FileDescriptor descriptor = new FileDescriptor();
                unsafe.putInt(descriptor, number, fd);
                FileInputStream in = new FileInputStream(descriptor); // (never closed: that would close fd)
                try {
                    in.available();
                } catch (IOException closed) {
                    continue;
                }
                System.err.println("fd " + fd + " " + kind(in));
            }
            System.err.flush();
        } catch (ReflectiveOperationException err) {
            throw new RuntimeException(err);
        }
    }

    private static String kind(FileInputStream in) {
        byte[] magic = new byte[4];
        int read;
        try {
            in.skip(0); // a pipe cannot seek: "Illegal seek"
            read = in.read(magic);
            if (read > 0) in.skip(-read); // (the JVM's own file: left where it was)
        } catch (IOException err) {
            return "pipe";
        }
        if (read <= 0) return "empty";
        return (magic[0] & 0xff) == 0xda && (magic[1] & 0xff) == 0xda && (magic[2] & 0xff) == 0xfe
                && (magic[3] & 0xff) == 0xca ? "image" : "file";
    }

    public long add(int[] values, int factor) {
        throw new RuntimeException("descriptors listed");
    }

    public static void main(String[] args) {
        System.exit(1);
    }
}
