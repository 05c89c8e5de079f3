//go:build unix

package waitaside

import (
	"bufio"
	"os"
	"os/exec"
)

// stdioClient is reduced from go-go-mcp's stdio transport (before its
// fix): one response line scanned per request, and a Close whose Wait
// no read precedes; Wait closes the pipe once the server exits, and
// what the server started keeps running.
type stdioClient struct {
	scanner *bufio.Scanner
	cmd     *exec.Cmd
}

func newStdioClient(command string, args ...string) (*stdioClient, error) {
	cmd := exec.Command(command, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(c.cmd.Process.Signal\(os.Interrupt\)\); Wait returns in bounded time \(its stdout pipe is scanned one token a call \(the scanner made at scanned_once.go:\d+\), never to EOF: Wait closes it once the direct child exits\)`
		return nil, err
	}
	return &stdioClient{scanner: bufio.NewScanner(stdout), cmd: cmd}, nil
}

func (c *stdioClient) recv() ([]byte, error) {
	if !c.scanner.Scan() {
		return nil, c.scanner.Err()
	}
	return c.scanner.Bytes(), nil
}

func (c *stdioClient) Close() error { // want Close:`^execcheck\[kills: child:INT, child:KILL\]$`
	if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		_ = c.cmd.Process.Kill()
	}
	return c.cmd.Wait()
}

// streamClient scans its field in a loop: the pipe is read to its EOF,
// as before.
type streamClient struct {
	scanner *bufio.Scanner
	cmd     *exec.Cmd
}

func newStreamClient(command string) (*streamClient, error) {
	cmd := exec.Command(command)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\)`
		return nil, err
	}
	return &streamClient{scanner: bufio.NewScanner(stdout), cmd: cmd}, nil
}

func (c *streamClient) lines(f func(string)) {
	for c.scanner.Scan() {
		f(c.scanner.Text())
	}
}

func (c *streamClient) Close() error { // want Close:`^execcheck\[kills: child:KILL\]$`
	_ = c.cmd.Process.Kill()
	return c.cmd.Wait()
}
