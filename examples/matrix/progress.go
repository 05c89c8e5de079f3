package main

import (
	"fmt"
	"os"
)

// newProgress reports the cells measured on f, as one line rewritten in
// place, when f is a terminal. A file or a pipe gets nothing: there the
// carriage returns would pile up as "^M1/81 cells^M2/81 cells...".
func newProgress(f *os.File) func(done, total int) {
	if !isTerminal(f) {
		return func(int, int) {}
	}
	return func(done, total int) {
		fmt.Fprintf(f, "\r%d/%d cells", done, total)
		if done == total {
			fmt.Fprintln(f)
		}
	}
}
