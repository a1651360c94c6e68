// expect: AC
// t, then t pairs: each pair's sum on a line of its own (64-bit: one sum is 2**31).
using System;
using System.Text;

class Sum {
    static void Main() {
        string[] words = Console.In.ReadToEnd().Split((char[]) null, StringSplitOptions.RemoveEmptyEntries);
        int t = int.Parse(words[0]);
        var output = new StringBuilder();
        for (int i = 0; i < t; i++) {
            output.Append(long.Parse(words[1 + 2 * i]) + long.Parse(words[2 + 2 * i])).Append('\n');
        }
        Console.Write(output);
    }
}
