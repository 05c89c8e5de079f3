package cancelpolicy_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
	"golang.org/x/sys/windows"
)

// roleArg, as the test binary's first argument, makes it play a process
// of a tree (see playRole) instead of running the tests: the trees are
// judged without the toolkit, so their processes are this binary's own.
const roleArg = "cancelpolicy-role"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == roleArg {
		os.Exit(playRole(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// The roles. Every process of a tree gets the same arguments but the
// role, token (unique to the tree, so that its processes are found by
// their command lines) and dir (where they write their reports).
const (
	// grandchild reports it runs, then sleeps 20 s holding the stdout and
	// stderr it inherited.
	roleGrandchild = "grandchild"
	// waiting starts the grandchild on its own stdout and stderr and
	// waits for it.
	roleWaiting = "waiting"
	// launcher starts the grandchild on its own stdout and stderr and
	// exits at once, as wrappers that start the real work in the
	// background do.
	roleLauncher = "launcher"
	// finishing starts the grandchild on no stdout or stderr, waits for
	// its report, and exits 0: a command that finishes by itself.
	roleFinishing = "finishing"
	// runner runs a waiting tree with cancelpolicy.Start, reports, and
	// waits for it: a caller of the package that the test kills.
	roleRunner = "runner"
)

// tree is one tree's identity: its token and where its processes report.
type tree struct{ token, dir string }

// argv runs the test binary in role for this tree.
func (tr tree) argv(role string) []string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return []string{exe, roleArg, role, tr.token, tr.dir}
}

// report is the file in which role says it runs.
func (tr tree) report(role string) string {
	return filepath.Join(tr.dir, tr.token+"."+role)
}

func playRole(args []string) int {
	if len(args) != 3 {
		fmt.Fprintf(os.Stderr, "%s: got arguments %q, want role, token and dir\n", roleArg, args)
		return 2
	}
	role, tr := args[0], tree{token: args[1], dir: args[2]}
	switch role {
	case roleGrandchild:
		if err := writeReport(tr.report(role)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		time.Sleep(20 * time.Second)
		return 0
	case roleWaiting, roleLauncher, roleFinishing:
		argv := tr.argv(roleGrandchild)
		var gc *exec.Cmd
		err := retried(func() error {
			gc = exec.Command(argv[0], argv[1:]...)
			if role != roleFinishing {
				gc.Stdout, gc.Stderr = os.Stdout, os.Stderr
			}
			return gc.Start()
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		switch role {
		case roleWaiting:
			_ = gc.Wait()
		case roleFinishing:
			if err := awaitFile(tr.report(roleGrandchild), nil); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		return 0
	case roleRunner:
		argv := tr.argv(roleWaiting)
		var out bytes.Buffer
		var s *cancelpolicy.Started
		err := retried(func() (err error) {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Stdout, cmd.Stderr = &out, &out
			s, err = cancelpolicy.Start(context.Background(), cmd)
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := writeReport(tr.report(role)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		_ = s.Wait()
		return 0
	}
	fmt.Fprintf(os.Stderr, "%s: role: got %q, want one of the roles\n", roleArg, role)
	return 2
}

// startFlake says whether err is the way Wine 8 now and then fails a
// process start under load (once in a few hundred here): the new process
// died before its initialisation, and NtCreateUserProcess reported
// STATUS_INTERNAL_ERROR. A tree's start is not what is tested: such a
// start is made again, up to 3 times in all (see retried).
func startFlake(err error) bool { return errors.Is(err, windows.ERROR_INTERNAL_ERROR) }

// retried calls start, which makes its command afresh each time, again
// while it fails with a start flake.
func retried(start func() error) error {
	for try := 1; ; try++ {
		err := start()
		if try == 3 || !startFlake(err) {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: start %d of 3: %v; again (a Wine start flake)\n", roleArg, try, err)
	}
}

// writeReport writes the caller's pid to path, whole or not at all.
func writeReport(path string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// reportLimit bounds the wait for a report: Wine starts a process in
// tens to hundreds of milliseconds, more on a loaded machine.
const reportLimit = 30 * time.Second

// awaitFile waits for path to exist, with a capped backoff, up to
// reportLimit, or until stop (if not nil) is closed.
func awaitFile(path string, stop <-chan struct{}) error {
	deadline := time.Now().Add(reportLimit)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("report %s: got none after %v", path, reportLimit)
		}
		select {
		case <-stop:
			return fmt.Errorf("report %s: got none before the runner returned", path)
		case <-time.After(delay):
		}
	}
}
