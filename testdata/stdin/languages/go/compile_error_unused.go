// expect: CE
// An import that is not used is an error in Go.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println(1)
}
