package tcjudge;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * The judge's entry for a Java standard-input program (see tcjudge/languages/java.py): the
 * program's class is run as `java Class` runs it, with fd 0 the test's input and fd 1 (System.out,
 * untouched) its answer. fd 3 is the result channel, which Java cannot name, so it is opened by
 * reflection (the JVM runs with java.io opened to our module alone, never to the program): "ready"
 * once the JVM is up, so the zygote charges only what follows, and one error line if main throws. A
 * normal end, or System.exit, ends the JVM with its exit status as it would anywhere.
 *
 * Arguments: the stack size in MiB of the thread that runs main (deep recursion as in C++), the
 * program's classes folder (loaded as Main loads a solution's: nothing of it before "ready"), the
 * program's class name.
 */
public final class Stdin {
    public static void main(String[] argv) throws InterruptedException {
        Main.result = Main.channel(3);
        Main.program = true;
        ClassLoader loader = Main.solutionLoader(argv[1]);
        Thread program = new Thread(null, () -> run(loader, argv[2]), "main", Long.parseLong(argv[0]) << 20);
        program.setContextClassLoader(loader);
        Main.write("ready");
        program.start();
        program.join();
    }

    private static void run(ClassLoader loader, String className) {
        Method main;
        try {
            Class<?> cls = Class.forName(className, false, loader);
            main = cls.getDeclaredMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers()) || !Modifier.isPublic(main.getModifiers())) {
                throw new NoSuchMethodException();
            }
            main.setAccessible(true); // the class itself need not be public, as for the java launcher
        } catch (ClassNotFoundException | NoSuchMethodException err) {
            Main.report("{\"kind\":\"compile_error\",\"message\":" + Main.quote("class " + className
                    + " has no method public static void main(String[])") + "}");
            return;
        }
        try {
            main.invoke(null, (Object) new String[0]);
            System.out.flush();
        } catch (InvocationTargetException err) {
            Main.failed(err.getCause(), "call");
        } catch (ExceptionInInitializerError err) {
            Main.failed(err.getCause() != null ? err.getCause() : err, "call");
        } catch (Throwable err) {
            Main.failed(err, "call");
        }
    }
}
