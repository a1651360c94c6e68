// expect: RE
// What the go profile refuses whatever Go's runtime does with threads: executable memory of its own
// making (mmap of anonymous memory with PROT_EXEC: EACCES), a new process (os/exec: the clone is
// refused) and a socket (EACCES). Exit status 3 when all three are refused, 4 when one is not.
package main

import (
	"os"
	"os/exec"
	"syscall"
)

func main() {
	_, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE|syscall.PROT_EXEC,
		syscall.MAP_ANON|syscall.MAP_PRIVATE)
	jit := err == syscall.EACCES
	fork := exec.Command("/bin/true").Run() != nil
	_, err = syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	socket := err == syscall.EACCES
	if jit && fork && socket {
		os.Exit(3)
	}
	os.Exit(4)
}
