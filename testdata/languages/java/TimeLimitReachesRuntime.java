// expect: TLE
// Declares the judge's runtime package and reaches for the runtime itself: its entry class through
// the system class loader and through the stack, then the result channel (standard output, and the
// descriptor behind it), to write a result of its own; then it loops. A plain JVM has no such
// runtime: every attempt fails, and the loop is TLE. On the class path the runtime was open to
// reflection, and its own write() sent 0 before the loop: WA (an error line: RE). As a module that
// opens nothing, with the channel a descriptor of its own, every attempt fails here too.
package tcjudge;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

public class Adder {
    static final String FORGED = "{\"kind\":\"return\",\"value\":0}\n";

    public long add(int[] values, int factor) {
        try {
            forge(ClassLoader.getSystemClassLoader().loadClass("tcjudge.Main"));
        } catch (Throwable err) {
            // no runtime to reach
        }
        try {
            StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                    .forEach(frame -> forge(frame.getDeclaringClass()));
        } catch (Throwable err) {
            // no runtime to reach
        }
        try {
            var make = FileDescriptor.class.getDeclaredConstructor(int.class);
            make.setAccessible(true);
            new FileOutputStream(make.newInstance(1)).write(FORGED.getBytes(StandardCharsets.UTF_8));
        } catch (Throwable err) {
            // java.io is not open to a solution
        }
        try {
            new FileOutputStream(FileDescriptor.out).write(FORGED.getBytes(StandardCharsets.UTF_8));
        } catch (Throwable err) {
            // printed, as on any standard output
        }
        long spin = 0;
        while (spin >= 0) spin = (spin + 1) & 0xffff;
        return spin;
    }

    static void forge(Class<?> runtime) {
        if (runtime == Adder.class) return;
        try {
            Method write = runtime.getDeclaredMethod("write", String.class);
            write.setAccessible(true);
            write.invoke(null, FORGED.trim());
        } catch (Throwable err) {
            // not ours to call
        }
    }
}
