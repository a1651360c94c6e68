// expect: WA
// 32-bit sums that wrap (2147483647 + 1 gives -2147483648).
using System;

class Overflow {
    static void Main() {
        int t = int.Parse(Console.ReadLine());
        for (int i = 0; i < t; i++) {
            string[] pair = Console.ReadLine().Split(' ');
            Console.WriteLine(unchecked(int.Parse(pair[0]) + int.Parse(pair[1])));
        }
    }
}
