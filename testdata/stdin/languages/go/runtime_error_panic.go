// expect: RE
// A nil map written to: a panic, exit status 2.
package main

import "fmt"

func main() {
	var counts map[string]int
	counts["a"]++
	fmt.Println(counts)
}
