//go:build unix

// Package filewriter holds outputs kept behind an interface that hold an
// *os.File the package opened: os/exec hands the file to the child, with
// no pipe and no copy goroutine.
package filewriter

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
)

// Logged keeps the log file as an io.WriteCloser (reduced from a real
// fix: the site was taken for a hang, "a pipe unless it holds an
// *os.File").
func Logged(ctx context.Context, path string, argv []string) error {
	var logw io.WriteCloser
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	logw = f
	defer logw.Close()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logw, logw
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(no output pipe\)`
}

// runner keeps its log in a field that only os.Create fills.
type runner struct {
	out io.Writer
}

func newRunner(path string) (*runner, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &runner{out: f}, nil
}

func (r *runner) run(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = r.out
	return cmd.Run() // want `^orphan: a cancel kills only the direct child .*\(no output pipe\)`
}

// Run uses runner.
func Run(ctx context.Context, path string, argv []string) error {
	r, err := newRunner(path)
	if err != nil {
		return err
	}
	return r.run(ctx, argv)
}

// sink holds a file or a buffer: a pipe when it holds the buffer.
var sink io.Writer

// SetSink points sink at a file or a buffer.
func SetSink(path string, buf *bytes.Buffer) error {
	if path == "" {
		sink = buf
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	sink = f
	return nil
}

// ToSink may copy through a pipe.
func ToSink(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = sink
	return cmd.Run() // want `^hang: stdout is an io.Writer \(sink\), a pipe unless it holds an \*os.File`
}

// Shared has an exported field other packages may fill with anything.
type Shared struct {
	Out io.Writer
}

// NewShared fills it with a file.
func NewShared(path string) (*Shared, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &Shared{Out: f}, nil
}

// Run may copy through a pipe.
func (s *Shared) Run(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = s.Out
	return cmd.Run() // want `^hang: stdout is an io.Writer \(s.Out\)`
}

// makeCmd sets the writer it is given as the command's output: a pipe
// or not, as its callers pass (reduced from an agent's bash tool, whose
// background runs log to a file).
func makeCmd(ctx context.Context, command string, out io.Writer) *exec.Cmd { // want makeCmd:`execcheck\[result: \[made\(1\) copypipe\]\]`
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Stdout = out
	cmd.Stderr = out
	return cmd
}

// Background logs to a file: no pipe.
func Background(ctx context.Context, command, logPath string) error {
	f, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer f.Close()
	return makeCmd(ctx, command, f).Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(no output pipe\)`
}

// Foreground collects the output in a buffer: a pipe.
func Foreground(ctx context.Context, command string) (string, error) {
	var out bytes.Buffer
	err := makeCmd(ctx, command, &out).Run() // want `^hang: stdout is an io.Writer \(out\), a pipe unless it holds an \*os.File`
	return out.String(), err
}

// Converted is dogechain's test server: os.Stdout converted to an
// io.Writer, in a local and directly, is still the file: no pipe.
func Converted(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	stdout := io.Writer(os.Stdout)
	cmd.Stdout = stdout
	cmd.Stderr = io.Writer(os.Stderr)
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(no output pipe\)`
}

// ConvertedBuffer converts a buffer: a pipe.
func ConvertedBuffer(ctx context.Context, argv []string) error {
	var b bytes.Buffer
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = io.Writer(&b)
	return cmd.Run() // want `^hang: stdout is an io.Writer \(io.Writer\(&b\)\), a pipe unless it holds an \*os.File`
}
