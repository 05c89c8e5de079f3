package deps_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocalCheckoutRecipe runs docs/local-checkout.md's commands, as
// written there, in a fresh module whose test uses exectest: the
// toolkit's block, then execcheck's. A recipe that fails here fails its
// readers.
func TestLocalCheckoutRecipe(t *testing.T) {
	gobin := goCommand(t)
	root := checkoutRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "local-checkout.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := shBlocks(doc)
	if len(blocks) != 2 {
		t.Fatalf("docs/local-checkout.md: got %d sh blocks, want 2 (the toolkit's, then execcheck's)", len(blocks))
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.test/local\n\ngo 1.26\n",
		"user_test.go": userTest + "\nfunc TestNothingLeft(t *testing.T) {}\n",
	}
	// As TestUsersModuleGetsNoXTools: the checkout's go.sum lines spare an
	// offline machine the checksum database.
	var sums []byte
	for _, mod := range []string{"go.sum", filepath.Join("execcheck", "go.sum")} {
		b, err := os.ReadFile(filepath.Join(root, mod))
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, b...)
	}
	files["go.sum"] = string(sums)
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"GOWORK=off", "GOFLAGS=" + goflags()}
	offline := os.Getenv("GOPROXY") == "off"
	if offline {
		// The first block's tidy drops the go.sum lines of x/tools, which
		// the second block needs again: offline, the checksum database
		// cannot give them back, and the module cache's copies were
		// verified when they were downloaded.
		env = append(env, "GOSUMDB=off")
	}
	for i, block := range blocks {
		for _, line := range block {
			args := strings.Fields(strings.ReplaceAll(line, "/path/to/exectest", root))
			if offline && strings.Join(args, " ") == "go mod tidy" {
				// As TestUsersModuleGetsNoXTools: offline, tidy also
				// wants modules no build here needs (other systems', the
				// dependencies' own tests), which a module cache filled
				// by builds lacks; -e lets it write what it can.
				args = append(args, "-e")
			}
			if len(args) < 2 || args[0] != "go" {
				t.Fatalf("block %d: line %q: got no go command, want every line one", i+1, line)
			}
			goIn(t, gobin, dir, env, args[1:]...)
		}
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"github.com/exectest/exectest => " + root, "tool github.com/exectest/exectest/execcheck/cmd/execcheck"} {
		if !bytes.Contains(mod, []byte(want)) {
			t.Errorf("go.mod after the recipe: got\n%s\nwant it to hold %q", mod, want)
		}
	}
}

// shBlocks returns the lines of each ```sh block of a Markdown text.
func shBlocks(doc []byte) [][]string {
	var blocks [][]string
	var cur []string
	in := false
	s := bufio.NewScanner(bytes.NewReader(doc))
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		switch {
		case line == "```sh":
			in, cur = true, nil
		case in && line == "```":
			in = false
			blocks = append(blocks, cur)
		case in && line != "":
			cur = append(cur, line)
		}
	}
	return blocks
}
