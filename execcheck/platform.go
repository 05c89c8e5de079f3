package execcheck

import (
	"go/ast"
	"go/build/constraint"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// platform is what holds a command's tree on the system a file builds
// for: what a cancel can reach, and so what the fix advises.
type platform uint8

const (
	// platGroups: process groups (Unix): Setpgid, a kill of -pgid.
	platGroups platform = iota
	// platJobs: no process groups; a job object holds the tree (Windows).
	// cancelpolicy.Run puts the command in one; Setpgid does not compile.
	platJobs
	// platNone: neither (Plan 9, js, wasip1).
	platNone
)

// jobAdvice ends the fix of a site on Windows: cancelpolicy is the fix
// there too, with a job object where Unix has the process group.
const jobAdvice = ": cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included (Windows)"

// jobPolicyReason is why cancelpolicy.Run and Start are ok on Windows.
const jobPolicyReason = ": a cancel terminates the command's job object, descendants included, also after the direct child exited"

// unixOnlyFix are texts that do not build on Windows: a SuggestedFix that
// would insert one is not offered for a file that builds for Windows.
var unixOnlyFix = []string{"Setpgid", "Setsid", "Kill(-"}

// forJobs returns f, or nil if an edit of f would not build on Windows.
func forJobs(f *analysis.SuggestedFix) *analysis.SuggestedFix {
	if f == nil {
		return nil
	}
	for _, e := range f.TextEdits {
		for _, s := range unixOnlyFix {
			if strings.Contains(string(e.NewText), s) {
				return nil
			}
		}
	}
	return f
}

// buildPlatform reads the platform of the build analyzed from the
// syscall.SysProcAttr os/exec was type-checked with. The analysis runs for
// one GOOS (go vet's, or GOOS=windows execcheck), which runtime.GOOS and
// build.Default.GOOS of the checker itself do not say.
func buildPlatform(execPkg *types.Package) platform {
	if execPkg.Path() == "syscall" {
		// A package that kills processes without os/exec (kill_only.go).
		attr, ok := execPkg.Scope().Lookup("SysProcAttr").(*types.TypeName)
		if !ok {
			return platNone
		}
		return attrPlatform(attr.Type())
	}
	cmd, _ := execPkg.Scope().Lookup("Cmd").(*types.TypeName)
	if cmd == nil {
		return platGroups
	}
	st, ok := cmd.Type().Underlying().(*types.Struct)
	if !ok {
		return platGroups
	}
	for f := range st.Fields() {
		if f.Name() == "SysProcAttr" {
			return attrPlatform(f.Type())
		}
	}
	return platGroups
}

// attrPlatform reads the platform from its SysProcAttr type: process
// groups (Setpgid), Job Objects (CreationFlags), or neither.
func attrPlatform(t types.Type) platform {
	attr, ok := derefStruct(t)
	if !ok {
		return platNone
	}
	pl := platNone
	for af := range attr.Fields() {
		switch af.Name() {
		case "Setpgid":
			return platGroups
		case "CreationFlags":
			pl = platJobs
		}
	}
	return pl
}

// platforms is the platform of each file of a package: the build's, or
// Windows's for a file that builds only there (a _windows.go name, a
// //go:build windows constraint), whatever build it is analyzed in.
type platforms struct {
	build platform
	files map[*ast.File]platform
}

func platformsOf(pass *analysis.Pass, execPkg *types.Package) *platforms {
	pl := &platforms{build: buildPlatform(execPkg), files: map[*ast.File]platform{}}
	for _, f := range pass.Files {
		if windowsOnly(pass.Fset, f) {
			pl.files[f] = platJobs
		}
	}
	return pl
}

// at is the platform of f (nil: the build's).
func (pl *platforms) at(f *ast.File) platform {
	if p, ok := pl.files[f]; ok {
		return p
	}
	return pl.build
}

// windowsOnly reports whether f builds only for windows, by its name or
// its build constraint, as go/build decides.
func windowsOnly(fset *token.FileSet, f *ast.File) bool {
	if tf := fset.File(f.Package); tf != nil && goosOfName(filepath.Base(tf.Name())) == "windows" {
		return true
	}
	x := buildConstraint(f)
	return x != nil && onlyFor(x, "windows")
}

// goosOfName returns the GOOS a file name restricts the file to
// (name_GOOS.go, name_GOOS_GOARCH.go, with _test), or "".
func goosOfName(name string) string {
	name, _, _ = strings.Cut(name, ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return ""
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	if n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]] {
		return l[n-2]
	}
	if n >= 1 && knownOS[l[n-1]] {
		return l[n-1]
	}
	return ""
}

// buildConstraint returns the //go:build line of f (or its // +build
// lines), or nil.
func buildConstraint(f *ast.File) constraint.Expr {
	var plus constraint.Expr
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			switch {
			case constraint.IsGoBuild(c.Text):
				if x, err := constraint.Parse(c.Text); err == nil {
					return x
				}
			case constraint.IsPlusBuild(c.Text):
				if x, err := constraint.Parse(c.Text); err == nil {
					if plus == nil {
						plus = x
					} else {
						plus = &constraint.AndExpr{X: plus, Y: x}
					}
				}
			}
		}
	}
	return plus
}

// onlyFor reports whether x can hold for goos and for no other GOOS,
// whatever the other tags (GOARCH, cgo, custom ones) are.
func onlyFor(x constraint.Expr, goos string) bool {
	var free []string
	seen := map[string]bool{}
	x.Eval(func(tag string) bool {
		if !knownOS[tag] && tag != "unix" && !seen[tag] {
			seen[tag] = true
			free = append(free, tag)
		}
		return false
	})
	if len(free) > 10 {
		return false // too many to try: as if it could build anywhere
	}
	holds := func(g string) bool {
		for m := 0; m < 1<<len(free); m++ {
			on := map[string]bool{}
			for i, t := range free {
				on[t] = m&(1<<i) != 0
			}
			if x.Eval(func(tag string) bool { return osTag(g, tag) || on[tag] }) {
				return true
			}
		}
		return false
	}
	if !holds(goos) {
		return false
	}
	for g := range knownOS {
		if g != goos && holds(g) {
			return false
		}
	}
	return true
}

// osTag reports whether tag holds for GOOS g, as go/build matches it.
func osTag(g, tag string) bool {
	switch tag {
	case g:
		return true
	case "unix":
		return unixOS[g]
	case "linux":
		return g == "android"
	case "darwin":
		return g == "ios"
	case "solaris":
		return g == "illumos"
	}
	return false
}

// knownOS, unixOS and knownArch are go/build's lists (internal/syslist).
var knownOS = tagSet("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
	"linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos")

var unixOS = tagSet("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios",
	"linux", "netbsd", "openbsd", "solaris")

var knownArch = tagSet("386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64",
	"mips", "mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le",
	"riscv", "riscv64", "s390", "s390x", "sparc", "sparc64", "wasm")

func tagSet(list ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range list {
		m[n] = true
	}
	return m
}
