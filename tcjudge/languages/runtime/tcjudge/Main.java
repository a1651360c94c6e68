package tcjudge;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The judge's Java runtime (see tcjudge/languages/java.py): one JVM per test, exec'd by the
 * zygote's forked child after its limits and confinement. fd 0 carries the test's arguments
 * (JSON, closed when complete), fd 1 is the result channel, fd 2 the captured output (System.out
 * and System.err of the solution). It writes "ready" once the JVM is up, so the zygote charges
 * only what follows; nothing of the solution is loaded until then. It then calls the method on a
 * fresh instance and writes one JSON line, as the Python child does.
 *
 * The runtime is compiled on its own, once, as the module tcjudge.runtime, which exports and opens
 * nothing (module-info.java): the JVM starts in it, and the solution's classes are loaded from their
 * own folder by a class loader of their own over the platform's loader (SolutionLoader). They see
 * the JDK and nothing of ours: whatever package they declare (this one included), no class of theirs
 * can stand for one this runtime names, and no reflection of theirs reaches this runtime's methods
 * or fields. The result channel is a descriptor of ours that no public API names (only this module
 * may open java.io's internals): in a method's JVM, FileDescriptor.out is the captured output, as
 * System.out is, so a solution that writes on it prints, as it would in a plain JVM.
 *
 * Arguments: the solution thread's stack size in MiB, the solution's classes folder, class name,
 * method name, then the problem's TopCoder types: return type, parameter types. The solution runs
 * in a thread of its own with that stack (deep recursion as in C++); the JVM's other threads keep
 * their small default stacks.
 */
public final class Main {
    static OutputStream result; // the result channel
    static boolean serving; // one JVM for many tests ("serve" as the first argument)
    static boolean reusable; // the last test left nothing that could reach the next one

    public static void main(String[] argv) throws Exception {
        serving = "serve".equals(argv[0]);
        String[] a = serving ? java.util.Arrays.copyOfRange(argv, 1, argv.length) : argv;
        result = channel(1);
        retarget(FileDescriptor.out, 2); // the solution's standard output is the captured output, as System.out
        InputStream requests = new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16);
        long stack = Long.parseLong(a[0]) << 20;
        String[] types = java.util.Arrays.copyOfRange(a, 4, a.length);
        if (!serving) {
            PrintStream output = captured();
            System.setOut(output);
            System.setErr(output);
            warmUp();
            ClassLoader loader = solutionLoader(a[1]);
            Thread solution = solutionThread(loader, stack, () -> run(loader, a[2], a[3], types, () -> readAll(requests)));
            write("ready");
            solution.start();
            solution.join();
            return;
        }
        serve(requests, stack, a[1], a[2], a[3], types);
    }

    /** Tests one after another in this JVM, each in a fresh class loader and a fresh thread: the
     *  solution's classes, statics and instance are new every time. The JDK's global settings the
     *  solution can change (properties, locale, time zone, standard streams) are put back before
     *  each test; a test that starts a thread of its own (its stack stays mapped for a while after it
     *  ends, and the next test's might not fit beside it), closes a standard descriptor or ends in a
     *  VirtualMachineError (out of memory, stack overflow) ends the JVM instead, and the zygote
     *  starts a fresh one. After a test that grew the heap, a full collection gives it back to the
     *  kernel (-XX:-ShrinkHeapInSteps), so each test starts from about the same resident memory (the
     *  zygote retires a JVM that holds much more than when it started, and reads each test's growth). */
    private static void serve(InputStream requests, long stack, String folder, String className, String methodName,
                              String[] types) throws Exception {
        Globals globals = new Globals();
        java.util.Set<Thread> ours = new java.util.HashSet<>(Thread.getAllStackTraces().keySet());
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        warmUp();
        long committed = Runtime.getRuntime().totalMemory(); // the heap as the JVM started it (-Xms)
        while (true) {
            globals.restore();
            if (Runtime.getRuntime().totalMemory() > committed) System.gc(); // give the heap back: it shrinks
            ClassLoader loader = solutionLoader(folder);
            reusable = true;
            String[] line = new String[1];
            Thread solution = startThread(() -> solutionThread(loader, stack, () -> {
                try {
                    line[0] = readLine(requests);
                } catch (IOException err) {
                    return; // the zygote is gone
                }
                if (line[0] != null) { // else the zygote is done with this JVM
                    run(loader, className, methodName, types, () -> line[0].getBytes(StandardCharsets.UTF_8));
                }
            }));
            if (solution == null) Runtime.getRuntime().halt(0); // never ready: the zygote starts a fresh JVM
            long started = threads.getTotalStartedThreadCount(); // (the test's thread among them)
            write("ready");
            solution.join();
            if (line[0] == null) return;
            if (!"next".equals(readLine(requests))) return; // the zygote read the figures; else it is done
            java.util.Set<Thread> live = new java.util.HashSet<>(Thread.getAllStackTraces().keySet());
            live.remove(Thread.currentThread());
            live.removeAll(ours);
            boolean startedThreads = threads.getTotalStartedThreadCount() != started;
            if (!reusable || startedThreads || !live.isEmpty() || !globals.descriptorsOpen()) Runtime.getRuntime().halt(0);
        }
    }

    /** A started thread, or null. The test's thread starts before "ready": a thread that has just
     *  ended still holds its stack for a moment after join() (its native thread is not yet gone), and
     *  the next test's stack may not fit beside it under RLIMIT_DATA; the start is tried again until
     *  it fits (on a busy machine that moment is longer). A failure here is the judge's, never a test's. */
    private static Thread startThread(java.util.function.Supplier<Thread> make) throws InterruptedException {
        for (long pause = 1; pause < 2048; pause *= 2) {
            Thread thread = make.get();
            try {
                thread.start();
                return thread;
            } catch (OutOfMemoryError err) {
                Thread.sleep(pause);
            }
        }
        return null;
    }

    /** A test's arguments (JSON), read in the solution's thread: a failure to read is reported as any other. */
    private interface Request {
        byte[] read() throws IOException;
    }

    /** What a test may change of the JVM's shared state, as it was at start. */
    private static final class Globals {
        final java.util.Properties properties = (java.util.Properties) System.getProperties().clone();
        final java.util.Locale locale = java.util.Locale.getDefault();
        final java.util.TimeZone zone = java.util.TimeZone.getDefault();

        void restore() {
            PrintStream output = captured();
            System.setOut(output);
            System.setErr(output);
            System.setIn(new ByteArrayInputStream(new byte[0]));
            System.setProperties((java.util.Properties) properties.clone());
            java.util.Locale.setDefault(locale);
            java.util.TimeZone.setDefault(zone);
            Thread.setDefaultUncaughtExceptionHandler(null);
        }

        boolean descriptorsOpen() {
            return FileDescriptor.in.valid() && FileDescriptor.out.valid() && FileDescriptor.err.valid();
        }
    }

    /** An output stream on descriptor `fd`, which no FileDescriptor of the JDK names (the result channel). */
    static FileOutputStream channel(int fd) {
        try {
            var make = FileDescriptor.class.getDeclaredConstructor(int.class);
            make.setAccessible(true);
            return new FileOutputStream(make.newInstance(fd));
        } catch (ReflectiveOperationException | RuntimeException err) {
            Runtime.getRuntime().halt(71); // never ready: the zygote reports the judge's fault
            return null;
        }
    }

    /** Point one of the JDK's standard FileDescriptors at another descriptor. */
    private static void retarget(FileDescriptor standard, int fd) {
        try {
            Field number = FileDescriptor.class.getDeclaredField("fd");
            number.setAccessible(true);
            number.setInt(standard, fd);
        } catch (ReflectiveOperationException | RuntimeException err) {
            Runtime.getRuntime().halt(71);
        }
    }

    /** System.out and System.err of the solution: the captured output (descriptor 2). */
    private static PrintStream captured() {
        return new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.err), 1 << 16), false);
    }

    private static Thread solutionThread(ClassLoader loader, long stack, Runnable body) {
        Thread solution = new Thread(null, body, "main", stack);
        solution.setContextClassLoader(loader);
        return solution;
    }

    /** One line of the zygote's (without its newline), or null at the end of the stream. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) return null;
            line.write(c);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    /** The loader of the solution's classes (nothing is loaded yet): the JDK is its parent, not us. */
    static ClassLoader solutionLoader(String folder) {
        try {
            return new SolutionLoader(SOLUTION_LOADER, new URL[] {Path.of(folder).toUri().toURL()});
        } catch (MalformedURLException err) {
            Runtime.getRuntime().halt(71); // never ready: the zygote reports the judge's fault
            return null;
        }
    }

    /** Classes from a folder, over the JDK. A class of one of our packages (a solution may declare
     *  `package tcjudge`) is looked for in the folder alone: asked for it, the platform loader would
     *  answer with ours (the JDK's loaders share one map from a package to its module), so a
     *  solution's own tcjudge.Main would be this class, which it cannot use. */
    private static final class SolutionLoader extends URLClassLoader {
        private static final Set<String> OURS = Main.class.getModule().getPackages();

        SolutionLoader(String name, URL[] path) {
            super(name, path, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            int dot = name.lastIndexOf('.');
            if (dot < 0 || !OURS.contains(name.substring(0, dot))) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> found = findLoadedClass(name);
                if (found == null) found = findClass(name);
                if (resolve) resolveClass(found);
                return found;
            }
        }
    }

    /** Load one of our own classes from our own folder (classes/, beside the module's jar) through a
     *  loader like the solution's: the JDK's first use of that path (about 8 ms of CPU) is then
     *  start-up, not charged, and holds no code of the solution's. */
    private static void warmUp() {
        try (URLClassLoader warm = new SolutionLoader("warm-up", new URL[] {
                Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .resolveSibling("classes").toUri().toURL()})) {
            Class.forName(Json.Number.class.getName(), false, warm);
        } catch (ReflectiveOperationException | IOException | java.net.URISyntaxException | RuntimeException err) {
            // only slower
        }
    }

    static final String SOLUTION_LOADER = "solution"; // names the solution's frames in stack traces

    private static void run(ClassLoader loader, String className, String methodName, String[] types, Request request) {
        String call = "load";
        try {
            String data = new String(request.read(), StandardCharsets.UTF_8);
            Object args = new Json(data).document();
            Class<?> cls;
            try {
                cls = Class.forName(className, args == null, loader);
            } catch (ClassNotFoundException err) {
                report("{\"kind\":\"missing\",\"message\":" + quote("the file defines no public class " + className) + "}");
                return;
            }
            Method method = find(cls, methodName, types);
            if (method == null) {
                report("{\"kind\":\"missing\",\"message\":" + quote("class " + className + " has no public method "
                        + declaration(methodName, types)) + "}");
                return;
            }
            if (args == null) {
                report("{\"kind\":\"loaded\"}");
                return;
            }
            List<?> values = (List<?>) args;
            Class<?>[] params = method.getParameterTypes();
            Object[] actual = new Object[params.length];
            for (int k = 0; k < params.length; k++) actual[k] = decode(values.get(k), params[k]);
            call = "call";
            Object instance = Modifier.isStatic(method.getModifiers()) ? null : construct(cls);
            method.setAccessible(true);
            Object value = method.invoke(instance, actual);
            System.out.flush();
            StringBuilder line = new StringBuilder("{\"kind\":\"return\",\"value\":");
            encode(line, value);
            report(line.append('}').toString());
        } catch (InvocationTargetException err) {
            failed(err.getCause(), call);
        } catch (ExceptionInInitializerError err) {
            failed(err.getCause() != null ? err.getCause() : err, call);
        } catch (Throwable err) {
            failed(err, call);
        }
    }

    private static Object construct(Class<?> cls) throws Throwable {
        var constructor = cls.getDeclaredConstructor();
        constructor.setAccessible(true);
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException err) {
            throw err.getCause();
        }
    }

    static boolean program; // a standard-input program (Stdin), whose uncaught exception the JVM names "main"

    static void failed(Throwable err, String phase) {
        System.out.flush();
        String message = String.valueOf(err.getMessage());
        if (message.length() > 300) message = message.substring(0, 300);
        Integer line = null;
        for (StackTraceElement frame : err.getStackTrace()) {
            if (SOLUTION_LOADER.equals(frame.getClassLoaderName()) && frame.getLineNumber() > 0) {
                line = frame.getLineNumber();
                break;
            }
        }
        reusable &= !(err instanceof VirtualMachineError);
        printTrace(err); // (after the line is found: it keeps the solution's frames, renamed)
        String type = err instanceof OutOfMemoryError ? "MemoryError" : err.getClass().getName();
        report("{\"kind\":\"error\",\"phase\":\"" + phase + "\",\"type\":" + quote(type) + ",\"message\":" + quote(message)
                + ",\"line\":" + line + ",\"errno\":null}");
    }

    /** On System.err (the captured output), the trace the java launcher prints for an exception that
     *  main does not catch, the solution's own frames only, so `grade --show-output` shows it. */
    private static void printTrace(Throwable err) {
        try {
            java.util.List<StackTraceElement> own = new java.util.ArrayList<>();
            for (StackTraceElement frame : err.getStackTrace()) {
                if (SOLUTION_LOADER.equals(frame.getClassLoaderName())) { // shown as the launcher shows them
                    own.add(new StackTraceElement(frame.getClassName(), frame.getMethodName(), frame.getFileName(),
                                                  frame.getLineNumber()));
                }
            }
            err.setStackTrace(own.toArray(new StackTraceElement[0]));
            System.err.print(program ? "Exception in thread \"main\" " : "");
            err.printStackTrace(System.err);
            System.err.flush();
        } catch (Throwable ignored) {
            // out of memory, a closed stream: the verdict does not depend on it
        }
    }

    /** One line on the result channel; then (one test per JVM) wait to be killed, so the zygote
     *  reads CPU time and peak memory from the kernel while the process still exists. */
    static void report(String line) {
        write(line);
        while (!serving) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException err) {
                // keep waiting
            }
        }
    }

    static void write(String line) {
        try {
            result.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            result.flush();
        } catch (IOException err) {
            Runtime.getRuntime().halt(71);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) out.write(buffer, 0, n);
        return out.toByteArray();
    }

    // -- TopCoder types ------------------------------------------------------------------------

    private static Class<?> javaType(String type) {
        if (type.endsWith("[]")) return javaType(type.substring(0, type.length() - 2)).arrayType();
        switch (type) {
            case "int": return int.class;
            case "long": return long.class;
            case "double": return double.class;
            case "boolean": return boolean.class;
            case "String": return String.class;
            default: throw new IllegalArgumentException("unknown TopCoder type " + type);
        }
    }

    private static String declaration(String name, String[] types) {
        StringBuilder text = new StringBuilder(types[0]).append(' ').append(name).append('(');
        for (int k = 1; k < types.length; k++) text.append(k > 1 ? ", " : "").append(types[k]);
        return text.append(')').toString();
    }

    private static Method find(Class<?> cls, String name, String[] types) {
        Class<?>[] params = new Class<?>[types.length - 1];
        for (int k = 1; k < types.length; k++) params[k - 1] = javaType(types[k]);
        try {
            Method method = cls.getMethod(name, params);
            return method.getReturnType() == javaType(types[0]) ? method : null;
        } catch (NoSuchMethodException err) {
            return null;
        }
    }

    private static Object decode(Object value, Class<?> type) {
        if (type.isArray()) {
            List<?> items = (List<?>) value;
            Object array = Array.newInstance(type.getComponentType(), items.size());
            for (int k = 0; k < items.size(); k++) Array.set(array, k, decode(items.get(k), type.getComponentType()));
            return array;
        }
        if (type == int.class) return Math.toIntExact(Long.parseLong(((Json.Number) value).text));
        if (type == long.class) return Long.parseLong(((Json.Number) value).text);
        if (type == double.class) return Double.parseDouble(((Json.Number) value).text);
        return value;  // String and boolean arrive as themselves
    }

    private static void encode(StringBuilder out, Object value) {
        if (value == null) out.append("null");
        else if (value instanceof String) out.append(quote((String) value));
        else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) out.append(value);
        else if (value instanceof Double) {
            double d = (Double) value;
            if (Double.isNaN(d)) out.append("NaN");
            else if (Double.isInfinite(d)) out.append(d > 0 ? "Infinity" : "-Infinity");
            else out.append(Double.toString(d));  // shortest text that reads back as the same double
        } else if (value.getClass().isArray()) {
            out.append('[');
            for (int k = 0, n = Array.getLength(value); k < n; k++) {
                if (k > 0) out.append(',');
                encode(out, Array.get(value, k));
            }
            out.append(']');
        } else {
            out.append("{\"$unsupported\":").append(quote(value.getClass().getName())).append('}');
        }
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int k = 0; k < text.length(); k++) {
            char c = text.charAt(k);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) && !validSurrogate(text, k)) {
                out.append(String.format("\\u%04x", (int) c));
            } else out.append(c);
        }
        return out.append('"').toString();
    }

    private static boolean validSurrogate(String text, int k) {
        char c = text.charAt(k);
        if (Character.isHighSurrogate(c)) return k + 1 < text.length() && Character.isLowSurrogate(text.charAt(k + 1));
        return k > 0 && Character.isHighSurrogate(text.charAt(k - 1));
    }

    /** A JSON reader for exactly what the judge sends: arrays, strings, numbers, booleans, null. */
    static final class Json {
        static final class Number {
            final String text;
            Number(String text) { this.text = text; }
        }

        private final String s;
        private int i;

        Json(String s) { this.s = s; }

        Object document() {
            Object value = value(0);
            space();
            if (i != s.length()) throw new IllegalArgumentException("judge arguments: trailing data");
            return value;
        }

        private void space() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
        }

        private Object value(int depth) {
            if (depth > 3) throw new IllegalArgumentException("judge arguments: nested too deeply");
            space();
            char c = s.charAt(i);
            if (c == '[') {
                List<Object> items = new ArrayList<>();
                i++;
                space();
                if (s.charAt(i) == ']') { i++; return items; }
                while (true) {
                    items.add(value(depth + 1));
                    space();
                    char next = s.charAt(i++);
                    if (next == ']') return items;
                    if (next != ',') throw new IllegalArgumentException("judge arguments: expected , or ]");
                }
            }
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            if (start == i) throw new IllegalArgumentException("judge arguments: unexpected character");
            return new Number(s.substring(start, i));
        }

        private String string() {
            StringBuilder out = new StringBuilder();
            i++;
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return out.toString();
                if (c != '\\') { out.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u': out.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                    default: out.append(e);
                }
            }
        }
    }
}
