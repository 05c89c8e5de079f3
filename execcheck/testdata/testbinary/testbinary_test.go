package testbinary

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

func helperCommand(ctx context.Context, mode string) *exec.Cmd { // want helperCommand:`^execcheck\[result: \[made\(1\)\]\]$`
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=TestHelperProcess", "--", mode)
	cmd.Env = append(os.Environ(), "GO_WANT_HELPER_PROCESS=1")
	return cmd
}

// TestHelperProcess is the child: it sleeps or prints, and starts no
// process.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("GO_WANT_HELPER_PROCESS") != "1" {
		return
	}
	switch os.Args[len(os.Args)-1] {
	case "sleep":
		time.Sleep(30 * time.Second)
	default:
		fmt.Fprintln(os.Stderr, "hello")
	}
	os.Exit(0)
}

// TestSpawnerProcess is a child that starts a process.
func TestSpawnerProcess(t *testing.T) {
	if os.Getenv("GO_WANT_HELPER_PROCESS") != "1" {
		return
	}
	_ = Spawn()
	os.Exit(0)
}

// TestLeafHelper: the child runs only TestHelperProcess: killing it
// ends every holder of the stderr pipe.
func TestLeafHelper(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	cmd := helperCommand(ctx, "sleep")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run()
}

// TestNoTests: -test.run=^$ runs no test; there is no TestMain.
func TestNoTests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run()
}

// TestSpawningHelper: the child runs a test that starts a process,
// which may hold the pipe.
func TestSpawningHelper(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run", "TestSpawnerProcess")
	cmd.Env = append(os.Environ(), "GO_WANT_HELPER_PROCESS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // want `^hang: stderr is a \*bytes.Buffer`
}

// TestAllTests: with no -test.run, the child runs every test, this one
// and those that start processes among them.
func TestAllTests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // want `^hang: stderr is a \*bytes.Buffer`
}
