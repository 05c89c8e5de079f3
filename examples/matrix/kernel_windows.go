package main

// kernelRelease is "" on Windows: the figures name no kernel there.
func kernelRelease() string { return "" }
