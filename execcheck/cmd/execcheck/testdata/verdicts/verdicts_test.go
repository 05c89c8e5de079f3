// Package verdicts runs exectest.AssertCancel on four of the libraries
// docs/execcheck.md reviews, each driving the default fixture (sh -c
// 'sleep 20 & wait'), to compare the verdicts with the classes execcheck
// gives their sites: script, gexec and mvdan.cc/sh fail (hang, hang,
// orphan), go-cmd passes (ok). It is a module of its own, not run by the
// suite (it needs those modules from the proxy), and not one of the
// checkout's workspace (go.work), hence GOWORK=off:
//
//	cd execcheck/cmd/execcheck/testdata/verdicts && GOWORK=off go test -v . && GOWORK=off go tool execcheck -sites ./...
package verdicts

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bitfield/script"
	"github.com/exectest/exectest"
	gocmd "github.com/go-cmd/cmd"
	"github.com/onsi/gomega/gexec"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// bitfield/script: ExecCommand under WithContext (execcheck: hang).
func TestScript(t *testing.T) {
	d := exectest.NewDescendant(t)
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		_, err := script.NewPipe().WithContext(ctx).ExecCommand(d.Argv()[0], d.Argv()[1:]...).String()
		return err
	})
}

// mvdan.cc/sh interp's DefaultExecHandler, as go-task runs commands
// (execcheck: orphan). Within 5s: its WaitDelay is killTimeout (2s).
func TestShInterp(t *testing.T) {
	d := exectest.NewDescendant(t)
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		var line []string
		for _, a := range d.Argv() {
			q, err := syntax.Quote(a, syntax.LangBash)
			if err != nil {
				return err
			}
			line = append(line, q)
		}
		f, err := syntax.NewParser().Parse(strings.NewReader(strings.Join(line, " ")), "")
		if err != nil {
			return err
		}
		r, err := interp.New(interp.Env(expand.ListEnviron("PATH=/usr/bin:/bin")), interp.StdIO(nil, new(strings.Builder), new(strings.Builder)))
		if err != nil {
			return err
		}
		return r.Run(ctx, f)
	}, exectest.Within(5*time.Second))
}

// gomega's gexec: Start, then Kill when ctx is done, and wait for the
// exit (execcheck: hang, through the facts of gexec.Start).
func TestGexec(t *testing.T) {
	d := exectest.NewDescendant(t)
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		s, err := gexec.Start(exec.Command(d.Argv()[0], d.Argv()[1:]...), nil, nil)
		if err != nil {
			return err
		}
		select {
		case <-s.Exited:
			return nil
		case <-ctx.Done():
			s.Kill()
			<-s.Exited
			return ctx.Err()
		}
	})
}

// go-cmd: Start, then Stop when ctx is done (execcheck: ok, a SIGTERM to
// the group, with no SIGKILL after it).
func TestGoCmd(t *testing.T) {
	d := exectest.NewDescendant(t)
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		c := gocmd.NewCmd(d.Argv()[0], d.Argv()[1:]...)
		statusc := c.Start()
		select {
		case <-statusc:
			return nil
		case <-ctx.Done():
			c.Stop()
			<-statusc
			return ctx.Err()
		}
	})
}
