package execcheck

// Subcommands that start no process, of a program that otherwise may:
// git rev-parse, symbolic-ref, show-ref, var, check-ref-format, version
// and remote get-url read the repository's refs and config and print;
// for-each-ref, ls-files, ls-tree, merge-base, rev-list, name-rev and
// count-objects read refs, the index and objects (round 25: trau's
// worktree queries), and so does describe without --dirty or --broken
// (round 26: multigres's version check); git starts hooks, filters, pagers, editors, ssh
// and helpers only for other subcommands (log and diff may run textconv
// filters, status recurses into submodules and runs an fsmonitor). Its global options come first (-C DIR, -c K=V,
// --git-dir=...); a subcommand execcheck cannot read may be any, so the
// program is then not taken as a leaf.

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"
)

// gitLeaves are git's subcommands that start no process; a list names
// the only second words (remote get-url) that do not.
var gitLeaves = map[string][]string{
	"rev-parse": nil, "symbolic-ref": nil, "show-ref": nil, "var": nil,
	"check-ref-format": nil, "version": nil, "remote": {"get-url"},
	"for-each-ref": nil, "ls-files": nil, "ls-tree": nil, "merge-base": nil,
	"rev-list": nil, "name-rev": nil, "count-objects": nil, "describe": nil,
}

// gitLeafUnless are the options that make a leaf subcommand start one:
// describe --broken runs git diff-index, --dirty refreshes the index (an
// fsmonitor hook). A word execcheck cannot read after such a subcommand
// may be one of them.
var gitLeafUnless = map[string][]string{"describe": {"--dirty", "--broken"}}

// gitGlobalValues are git's global options that take the next argument
// as their value.
var gitGlobalValues = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"}

// subcommandLeafWhy says why the command made with progArgs starts no
// process, for a program whose subcommand decides it, or "" if it may.
func (w *walker) subcommandLeafWhy(name string, progArgs []ast.Expr, variadic bool) string {
	if name != "git" || len(progArgs) < 2 {
		return ""
	}
	args := progArgs[1:]
	if variadic {
		groups, ok := w.sliceGroups(progArgs[len(progArgs)-1])
		if !ok || len(groups) != 1 {
			return ""
		}
		args = append(slices.Clone(progArgs[1:len(progArgs)-1]), groups[0]...)
	}
	var words []string
	value := false
	for i, a := range args {
		s, ok := constString(w.info, a)
		switch {
		case value:
			value = false
			continue
		case !ok:
			return "" // a subcommand, or a word after it, execcheck cannot read
		case len(words) == 0 && strings.HasPrefix(s, "-"):
			value = slices.Contains(gitGlobalValues, s)
			continue
		}
		words = append(words, s)
		if unless, ok := gitLeafUnless[s]; ok && len(words) == 1 && !w.noneOf(args[i+1:], unless) {
			return ""
		}
		if len(words) == 2 {
			break
		}
	}
	if len(words) == 0 {
		return ""
	}
	second, ok := gitLeaves[words[0]]
	switch {
	case !ok:
		return ""
	case second == nil:
		return fmt.Sprintf("git %s starts no process: nothing outlives its kill", words[0])
	case len(words) == 2 && slices.Contains(second, words[1]):
		return fmt.Sprintf("git %s %s starts no process: nothing outlives its kill", words[0], words[1])
	}
	return ""
}

// noneOf reports whether every argument of args is a constant that is
// none of opts (nor opts[i]=value).
func (w *walker) noneOf(args []ast.Expr, opts []string) bool {
	for _, a := range args {
		s, ok := constString(w.info, a)
		if !ok {
			return false
		}
		for _, o := range opts {
			if s == o || strings.HasPrefix(s, o+"=") {
				return false
			}
		}
	}
	return true
}
