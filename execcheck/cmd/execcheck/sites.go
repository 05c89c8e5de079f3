package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// sitesMode reports whether the arguments ask for the inventory: -sites
// before the first package pattern. go vet never passes it (execcheck is
// then run once per package, on a .cfg file).
func sitesMode(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return false
		}
		switch strings.TrimLeft(a, "-") {
		case "sites", "sites=true", "sites=1":
			return true
		}
	}
	return false
}

// site is one line of the inventory.
type site struct {
	Pos     string   `json:"pos"`
	Package string   `json:"package"`
	Call    string   `json:"call"`
	Made    []string `json:"made,omitempty"`
	Started string   `json:"started,omitempty"`
	Class   string   `json:"class"`
	Reason  string   `json:"reason"`
	Fix     string   `json:"fix,omitempty"`
	Ignored string   `json:"ignored,omitempty"`
}

// runSites lists every exec site of the packages with its class, and
// returns the exit status: 3 if a site is neither ok nor ignored.
func runSites(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("execcheck -sites", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("sites", true, "list every exec site with its class")
	asJSON := fs.Bool("json", false, "print the inventory as JSON")
	tests := fs.Bool("test", true, "analyze test files too")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: execcheck -sites [-json] [-test=false] packages...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 1
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: *tests}
	pkgs, err := packages.Load(cfg, fs.Args()...)
	if err != nil {
		fmt.Fprintf(stderr, "execcheck: %v\n", err)
		return 1
	}
	loadFailed := printLoadErrors(pkgs, stderr) > 0
	if len(pkgs) == 0 {
		fmt.Fprintf(stderr, "execcheck: %s matched no packages\n", strings.Join(fs.Args(), " "))
		return 1
	}
	g, err := checker.Analyze([]*analysis.Analyzer{execcheck.Analyzer}, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "execcheck: %v\n", err)
		return 1
	}
	seen := map[string]bool{}
	var list []site
	for _, act := range g.Roots {
		if act.Err != nil {
			fmt.Fprintf(stderr, "execcheck: %s: %v\n", act.Package.PkgPath, act.Err)
			return 1
		}
		res, _ := act.Result.(*execcheck.Result)
		if res == nil {
			continue
		}
		for _, s := range res.Sites {
			pos := positionString(s.Posn)
			if seen[pos+s.Call] { // a file in a package and in its test variant
				continue
			}
			seen[pos+s.Call] = true
			st := ""
			if s.Started.IsValid() {
				st = positionString(s.Started)
			}
			list = append(list, site{Pos: pos, Package: strings.TrimSuffix(act.Package.PkgPath, "_test"), Call: s.Call, Made: s.Made,
				Started: st, Class: string(s.Class), Reason: s.Reason, Fix: s.Fix, Ignored: s.Ignored})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return lessPos(list[i].Pos, list[j].Pos) })
	counts := map[string]int{}
	ignored, open := 0, 0
	for _, s := range list {
		counts[s.Class]++
		switch {
		case s.Ignored != "":
			ignored++
		case s.Class != string(execcheck.OK):
			open++
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "\t")
		if err := enc.Encode(struct {
			Sites   []site         `json:"sites"`
			Classes map[string]int `json:"classes"`
			Ignored int            `json:"ignored"`
		}{list, counts, ignored}); err != nil {
			fmt.Fprintf(stderr, "execcheck: %v\n", err)
			return 1
		}
	} else {
		for _, s := range list {
			call := s.Call
			if s.Started != "" {
				call += " (starting it at " + s.Started + ")"
			}
			line := fmt.Sprintf("%s: %s: %s: %s", s.Pos, s.Class, call, s.Reason)
			if s.Ignored != "" {
				line += " [ignored: " + s.Ignored + "]"
			}
			fmt.Fprintln(stdout, line)
		}
		fmt.Fprintf(stdout, "%d exec sites: %d hang, %d orphan, %d launcher, %d ok, %d unknown; %d ignored\n",
			len(list), counts["hang"], counts["orphan"], counts["launcher"], counts["ok"], counts["unknown"], ignored)
	}
	switch {
	case loadFailed:
		return 1
	case open > 0:
		return 3
	}
	return 0
}

// lessPos orders file:line:col positions by file, then numerically.
func lessPos(a, b string) bool {
	fa, la, ca := splitPos(a)
	fb, lb, cb := splitPos(b)
	if fa != fb {
		return fa < fb
	}
	if la != lb {
		return la < lb
	}
	return ca < cb
}

func splitPos(p string) (string, int, int) {
	var line, col int
	i := strings.LastIndex(p, ":")
	j := strings.LastIndex(p[:max(i, 0)], ":")
	if i < 0 || j < 0 {
		return p, 0, 0
	}
	fmt.Sscan(p[j+1:i], &line)
	fmt.Sscan(p[i+1:], &col)
	return p[:j], line, col
}
