//go:build unix

// Package sites holds exec sites execcheck cannot follow to what stops
// them: -sites lists them as unknown, never as ok, and reports nothing.
package sites

import (
	"bytes"
	"context"
	"os/exec"
	"reflect"
	"time"
)

// Getter hands out commands from elsewhere.
type Getter interface{ Cmd() *exec.Cmd }

// FromInterface runs a command an interface method made.
func FromInterface(g Getter) error {
	return g.Cmd().Run()
}

// Passed makes a command and hands it to a function value.
func Passed(ctx context.Context, run func(*exec.Cmd) error) error {
	cmd := exec.CommandContext(ctx, "make")
	return run(cmd)
}

// Stopper stops a command some other way.
type Stopper interface{ Stop() error }

// OpaqueCancel's Cancel calls an interface method.
func OpaqueCancel(ctx context.Context, s Stopper, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = new(bytes.Buffer)
	cmd.Cancel = func() error { return s.Stop() }
	return cmd.Run()
}

// Fine is ok: the inventory lists it too.
func Fine(argv []string) error {
	return exec.Command(argv[0], argv[1:]...).Run()
}

// reflective sets Cancel and WaitDelay through reflect, as code that
// builds with Go versions before them does.
func reflective(ctx context.Context, name string) *exec.Cmd { // want reflective:`^execcheck\[result: \[made\(1\) reflected\]\]$`
	cmd := exec.CommandContext(ctx, name)
	rc := reflect.ValueOf(cmd).Elem()
	if f := rc.FieldByName("WaitDelay"); f.IsValid() {
		f.Set(reflect.ValueOf(time.Second))
	}
	return cmd
}

// Reflected runs what reflective made: unknown, not a hang.
func Reflected(ctx context.Context) ([]byte, error) {
	return reflective(ctx, "go").Output()
}
