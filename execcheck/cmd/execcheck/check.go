package main

import (
	"flag"
	"fmt"
	"go/token"
	"io"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sort"
	"strings"
	"time"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// vetMode reports whether go vet runs execcheck as its tool: -V (the
// tool's version) or -flags (its flags) before the packages, or a single
// .cfg file (one package, as go vet describes it). singlechecker speaks
// that protocol, and go vet shortens the paths of its output itself.
func vetMode(args []string) bool {
	var pkgs []string
	for i, a := range args {
		if a == "--" {
			pkgs = args[i+1:]
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pkgs = args[i:]
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "V" || name == "flags" {
			return true
		}
	}
	return len(pkgs) == 1 && strings.HasSuffix(pkgs[0], ".cfg")
}

// checkFlags are the flags of execcheck run on packages: singlechecker's,
// which it replaces there, with -sites.
type checkFlags struct {
	fix, diff, json, tests bool
	context                int
	debug                  string
	cpuprofile, memprofile string
	trace                  string
}

func newCheckFlags(stderr io.Writer) (*flag.FlagSet, *checkFlags) {
	f := &checkFlags{}
	fs := flag.NewFlagSet("execcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("V", false, "print version and exit")
	fs.Bool("flags", false, "print analyzer flags in JSON")
	fs.BoolVar(&f.json, "json", false, "emit JSON output")
	fs.IntVar(&f.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&f.fix, "fix", false, "apply all suggested fixes, and say what was rewritten and what is left to edit by hand (exit status 3 if a site is left)")
	fs.BoolVar(&f.diff, "diff", false, "with -fix, don't update the files, but print a unified diff")
	fs.Bool("sites", false, "list every exec site with its class (-sites -h for its flags)")
	fs.BoolVar(&f.tests, "test", true, "indicates whether test files should be analyzed, too")
	fs.StringVar(&f.debug, "debug", "", `debug flags, any subset of "fpstv"`)
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write CPU profile to this file")
	fs.StringVar(&f.memprofile, "memprofile", "", "write memory profile to this file")
	fs.StringVar(&f.trace, "trace", "", "write trace log to this file")
	fs.Bool("source", false, "no effect (deprecated)")
	fs.Bool("v", false, "no effect (deprecated)")
	fs.Bool("all", false, "no effect (deprecated)")
	fs.String("tags", "", "no effect (deprecated)")
	fs.Usage = func() {
		paras := strings.Split(execcheck.Analyzer.Doc, "\n\n")
		fmt.Fprintf(stderr, "%s: %s\n\n", execcheck.Analyzer.Name, paras[0])
		fmt.Fprintf(stderr, "Usage: %s [-flag] [package]\n\n", execcheck.Analyzer.Name)
		if len(paras) > 1 {
			fmt.Fprintln(stderr, strings.Join(paras[1:], "\n\n"))
		}
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs, f
}

// runCheck runs execcheck on packages, as singlechecker would, but prints
// the findings' paths as go vet does (see shortPath), and, with -fix,
// applies the rewrites itself to say what it did (see runFix). It returns
// the exit status: 1 on an error; else 3 if a site is reported (with
// -fix: left to edit by hand); else 0. With -json, as singlechecker, 0
// unless an error.
func runCheck(args []string, stdout, stderr io.Writer) (status int) {
	fs, f := newCheckFlags(stderr)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 1
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 1
	}
	// As singlechecker, -v is -debug=v.
	if v := fs.Lookup("v"); v != nil && v.Value.String() == "true" && !strings.Contains(f.debug, "v") {
		f.debug += "v"
	}
	dbg := func(b byte) bool { return strings.IndexByte(f.debug, b) >= 0 }
	logger := log.New(stderr, "execcheck: ", 0)
	if stop, err := f.profile(logger); err != nil {
		logger.Print(err)
		return 1
	} else {
		defer stop()
	}

	if dbg('v') {
		logger.Printf("load %s", fs.Args())
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: f.tests}
	pkgs, err := packages.Load(cfg, fs.Args()...)
	if err == nil && len(pkgs) == 0 {
		err = fmt.Errorf("%s matched no packages", strings.Join(fs.Args(), " "))
	}
	if err != nil {
		logger.Print(err)
		return 1
	}
	failed := false
	if printLoadErrors(pkgs, stderr) > 0 {
		failed = true
	}
	opts := &checker.Options{SanityCheck: dbg('s'), Sequential: dbg('p')}
	if dbg('f') {
		opts.FactLog = stderr
	}
	if dbg('v') {
		logger.Printf("building graph of analysis passes")
	}
	g, err := checker.Analyze([]*analysis.Analyzer{execcheck.Analyzer}, pkgs, opts)
	if err != nil {
		logger.Print(err)
		return 1
	}
	if dbg('t') {
		defer printTimes(g, stderr, dbg('p'))
	}
	if f.json && !f.fix {
		// go/analysis's JSON, as singlechecker and go vet -json print
		// it, errors included; as singlechecker, status 0 but for the
		// packages' own errors.
		if err := g.PrintJSON(stdout); err != nil {
			logger.Print(err)
			return 1
		}
		if failed {
			return 1
		}
		return 0
	}
	for act := range g.All() {
		if act.Err != nil {
			failed = true
			fmt.Fprintf(stderr, "%s: %v\n", act.Analyzer.Name, act.Err)
		}
	}
	switch {
	case f.fix:
		status = runFix(g, f.diff, stdout, stderr)
	default:
		if printText(g, f.context, stderr) > 0 {
			status = 3
		}
	}
	if failed {
		return 1
	}
	return status
}

// printText prints the findings of the root packages, each once (a file
// of a package and of its test variant is analyzed twice), in the order
// of their positions, with the lines around them for -c, and returns how
// many it printed.
func printText(g *checker.Graph, contextLines int, w io.Writer) int {
	type diag struct {
		fset *token.FileSet
		d    analysis.Diagnostic
		posn token.Position
	}
	type key struct {
		posn, end token.Position
		message   string
	}
	seen := map[key]bool{}
	var list []diag
	for _, act := range g.Roots {
		if act.Err != nil {
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			k := key{fset.Position(d.Pos), fset.Position(d.End), d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			list = append(list, diag{fset, d, k.posn})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return lessPosition(list[i].posn, list[j].posn) })
	for _, x := range list {
		printPlain(w, x.fset, contextLines, x.d.Pos, x.d.End, x.d.Message)
		for _, rel := range x.d.Related {
			printPlain(w, x.fset, contextLines, rel.Pos, rel.End, "\t"+rel.Message)
		}
	}
	return len(list)
}

// printPlain prints one finding as go vet does, path:line:col: message,
// and with contextLines >= 0 its lines and that many around them.
func printPlain(w io.Writer, fset *token.FileSet, contextLines int, pos, end token.Pos, message string) {
	posn := fset.Position(pos)
	fmt.Fprintf(w, "%s: %s\n", positionString(posn), message)
	if contextLines < 0 {
		return
	}
	endPosn := fset.Position(end)
	if !endPosn.IsValid() {
		endPosn = posn
	}
	data, _ := os.ReadFile(posn.Filename)
	lines := strings.Split(string(data), "\n")
	for i := posn.Line - contextLines; i <= endPosn.Line+contextLines; i++ {
		if 1 <= i && i <= len(lines) {
			fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
		}
	}
}

// positionString is posn as path:line:col, its path as shortPath gives it.
func positionString(posn token.Position) string {
	posn.Filename = shortPath(posn.Filename)
	return posn.String()
}

func lessPosition(a, b token.Position) bool {
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// profile starts what -cpuprofile and -trace ask for, and returns what
// stops them and writes -memprofile.
func (f *checkFlags) profile(logger *log.Logger) (func(), error) {
	var stops []func()
	stop := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	if f.cpuprofile != "" {
		out, err := os.Create(f.cpuprofile)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(out); err != nil {
			out.Close()
			return nil, err
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); out.Close() })
	}
	if f.trace != "" {
		out, err := os.Create(f.trace)
		if err != nil {
			stop()
			return nil, err
		}
		if err := trace.Start(out); err != nil {
			out.Close()
			stop()
			return nil, err
		}
		stops = append(stops, func() {
			trace.Stop()
			out.Close()
			logger.Printf("to view the trace, run:\n$ go tool trace view %s", f.trace)
		})
	}
	if f.memprofile != "" {
		out, err := os.Create(f.memprofile)
		if err != nil {
			stop()
			return nil, err
		}
		stops = append(stops, func() {
			runtime.GC()
			if err := pprof.WriteHeapProfile(out); err != nil {
				logger.Printf("writing memory profile: %v", err)
			}
			out.Close()
		})
	}
	return stop, nil
}

// printTimes prints the actions that took 90% of the time (-debug=t).
func printTimes(g *checker.Graph, w io.Writer, sequential bool) {
	if !sequential {
		fmt.Fprintln(w, "Warning: times are mostly GC/scheduler noise; use -debug=tp to disable parallelism")
	}
	var list []*checker.Action
	var total time.Duration
	for act := range g.All() {
		list = append(list, act)
		total += act.Duration
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Duration > list[j].Duration })
	var sum time.Duration
	for _, act := range list {
		fmt.Fprintf(w, "%s\t%s\n", act.Duration, act)
		sum += act.Duration
		if sum >= total*9/10 {
			break
		}
	}
	if total > sum {
		fmt.Fprintf(w, "%s\tall others\n", total-sum)
	}
}
