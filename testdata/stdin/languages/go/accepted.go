// expect: AC
// t, then t pairs: each pair's sum on a line of its own (64-bit: one sum is 2**31).
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var t int
	fmt.Fscan(in, &t)
	for ; t > 0; t-- {
		var a, b int64
		fmt.Fscan(in, &a, &b)
		fmt.Fprintln(out, a+b)
	}
}
