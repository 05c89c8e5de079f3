module example.com/t

go 1.26.0

require (
	github.com/exectest/exectest v0.0.0
	golang.org/x/sys v0.50.0
)

replace github.com/exectest/exectest => ../..
