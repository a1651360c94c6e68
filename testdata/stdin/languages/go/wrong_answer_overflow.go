// expect: WA
// 32-bit sums that wrap (2147483647 + 1 gives -2147483648).
package main

import "fmt"

func main() {
	var t int
	fmt.Scan(&t)
	for ; t > 0; t-- {
		var a, b int32
		fmt.Scan(&a, &b)
		fmt.Println(a + b)
	}
}
