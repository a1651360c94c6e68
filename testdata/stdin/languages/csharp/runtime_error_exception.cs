// expect: RE
// An index out of range: an unhandled exception, exit status 1.
using System;

class Index {
    static void Main() {
        int[] empty = new int[0];
        Console.WriteLine(empty[Environment.GetCommandLineArgs().Length + 4]);
    }
}
