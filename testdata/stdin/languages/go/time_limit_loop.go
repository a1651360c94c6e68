// expect: TLE
package main

var n uint64

func main() {
	for {
		n++
	}
}
