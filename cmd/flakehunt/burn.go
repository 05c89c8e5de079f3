package main

import "os"

// burnArg as argv[1] turns this binary into a CPU burner. It is not a
// flag: it must be recognised before flag parsing, and in a test binary
// (whose TestMain calls maybeBurn) before the testing package's.
const burnArg = "-flakehunt.burn"

func maybeBurn() {
	if len(os.Args) > 1 && os.Args[1] == burnArg {
		burn()
	}
}

// burn spins until killed. Go does not drop an endless loop, side effects
// or not.
func burn() {
	x := uint64(os.Getpid()) | 1
	for {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
}
