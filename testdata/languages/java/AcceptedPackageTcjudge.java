// expect: AC
// Declares the judge's runtime package, with a class Main of its own, and prints on the standard
// output through FileDescriptor.out (a fast-output habit), as a plain JVM runs it: AC. The runtime's
// own package must not answer for the file's Main (the JDK's loaders share one map from a package
// to its module), and FileDescriptor.out must not be the result channel.
package tcjudge;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintWriter;

class Main {
    static long scaled(long total, int factor) {
        return total * factor;
    }
}

public class Adder {
    public long add(int[] values, int factor) {
        long total = 0;
        for (int v : values) total += v;
        PrintWriter out = new PrintWriter(new FileOutputStream(FileDescriptor.out));
        out.println("debug: total " + total);
        out.flush();
        return Main.scaled(total, factor);
    }
}
