// expect: MLE
// 1 MiB at a time, each written to, kept: past the 256 MiB limit in the kernel's figures.
package main

func main() {
	var kept [][]byte
	for {
		block := make([]byte, 1<<20)
		for i := range block {
			block[i] = 1
		}
		kept = append(kept, block)
	}
}
