package execcheck_test

import (
	"strings"
	"testing"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFamilies pins the families of misses found on real fix commits
// (issue 31), each reduced from real code to a package of testdata.
func TestFamilies(t *testing.T) {
	for _, pkg := range []string{
		"ctxbranch",
		"pkgfunc",
		"filewriter",
		"readloop",
		"armed",
		"watch",
		"prockept",
		"progparam",
		"launcherpipe",
		"pgidfallback",
		"readsarmed",
		"setupkill",
		"pidshared",
		"fileresult",
		"methodkill",
		"ctxfield",
		"waitresult",
		"loopkept",
		"stateguard",
		"waitaside",
		"testbinary",
		"disposal",
		"earlyreturn",
		"closecancel",
		"procwait",
		"leaves",
		"mapkept",
		"readsgone",
		"readinline",
		"progpath",
		"leafflags",
		"sigassert",
		"loopcmd",
		"loopcmd/proc",
		"tempscript",
		"idlekill",
		"storedfield",
		"resume",
		"funcvar",
		"handlerlit",
		"pipeclosed",
		"attrparam",
		"findprocess",
		"pipekept",
		"pipereturned",
		"groupbranch",
		"cmdfunc",
		"testctx",
		"waitfree",
		"afterwait",
		"goparams/lib",
		"goparams",
		"fieldfunc",
		"pgidreaped",
		"watchend",
		"timerkill",
		"runaside",
		"wrapped/wrap",
		"stopfunc",
		"factory",
		"lockheld",
		"cancelkept",
		"ctxnever",
		"keptafter",
		"readsapart/xexec",
		"readsapart",
		"prochanded",
		"soleimpl",
		"illtyped",
		"goosarm",
		"startbeside",
		"jobpipe",
		"sigfunc",
		"groupfailed",
		"leafparams",
	} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), execcheck.Analyzer, "example.com/t/"+pkg)
		})
	}
}

// TestProcessKept: a process kept where execcheck does not follow a kill
// (sent on a channel from an exported function) makes the site unknown,
// not "ok: no cancel"; one kept in an atomic.Pointer[os.Process], or sent
// on a channel the package receives from, is followed to its kill.
func TestProcessKept(t *testing.T) {
	checkSites(t, "prockept", map[int]siteWant{
		106: {execcheck.Unknown, "cmd.Process", false},
		59:  {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-p.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		// chan.go: sent on a channel the package receives from, kept in
		// a field and killed through it.
		52: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-j.process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
	})
}

// TestTestBinaryLeaf: a test binary re-executed to run only tests that
// start no process is a leaf, so its sites are ok, and say why.
func TestTestBinaryLeaf(t *testing.T) {
	res := analysistest.Run(t, analysistest.TestData(), execcheck.Analyzer, "example.com/t/testbinary")
	want := map[int]string{
		51: "the test binary re-executed with -test.run=TestHelperProcess runs TestHelperProcess (and TestMain), which starts no process",
		61: "the test binary re-executed with -test.run=^$ runs no test (and TestMain), which starts no process",
	}
	for _, r := range res {
		for _, s := range r.Result.(*execcheck.Result).Sites {
			w, ok := want[s.Posn.Line]
			if !ok {
				continue
			}
			if s.Class != execcheck.OK || !strings.Contains(s.Reason, w) {
				t.Errorf("site at line %d: got %s: %s, want ok: %s", s.Posn.Line, s.Class, s.Reason, w)
			}
			delete(want, s.Posn.Line)
		}
	}
	for line := range want {
		t.Errorf("site at line %d: got none, want one", line)
	}
}

// TestGOOSBranch: on a Unix build the arm of a branch on runtime.GOOS
// for windows never runs; a group kill by the pid on the other is the
// cancel's.
func TestGOOSBranch(t *testing.T) {
	checkSites(t, "goosarm", map[int]siteWant{
		66:  {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		115: {execcheck.OK, "no cancel: exec.Command, and no kill by hand", true}, // on the arm this build never runs: still a site
	})
}

// TestStartBeside: a kill beside the arm that takes Start's result is
// not a cancel's; a watch after the select is.
func TestStartBeside(t *testing.T) {
	checkSites(t, "startbeside", map[int]siteWant{
		58: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
	})
}

// TestGroupOnOneArm: a group kill that comes only on one arm of a
// branch, for a command that gets its group only on one arm of another,
// makes the site unknown, saying both, rather than ok.
func TestGroupOnOneArm(t *testing.T) {
	checkSites(t, "groupbranch", map[int]siteWant{
		36: {execcheck.Unknown, "syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) (in processKill) comes only on one arm of the branch at groupbranch.go:39, and the command gets a process group of its own only on one arm of the branch at groupbranch.go:19 (SysProcAttr{Setpgid: true} (in setAttr)): execcheck cannot tell whether the two go together", true},
	})
}

// TestCtxEnd: a watch that kills the group on one way a context ends
// only (snclient's guard: at the deadline, not on a cancel) covers the
// default Cancel only for a command whose context cannot end the other
// way; both ends, or a context.WithTimeout of a never-done parent, are ok.
func TestCtxEnd(t *testing.T) {
	const w = "a kill by hand reaches the group (syscall.Kill(-pid, syscall.SIGTERM) (in killGroup) (in guard"
	checkSites(t, "ctxend", map[int]siteWant{
		90:  {execcheck.OK, w, false},
		107: {execcheck.OK, w, false},
	})
}

// TestCtxFieldNever: a context kept in an unexported field whose every
// store is context.Background() or a WithCancel of it whose cancel
// nothing calls (assetto-server-manager) is never done; one whose cancel
// a method calls, or reads, or a caller's, may be done (hang).
func TestCtxFieldNever(t *testing.T) {
	const w = "no cancel: the context in field ctx, never done (every store into it is context.Background() or a WithCancel of it whose cancel nothing calls), and no kill by hand"
	checkSites(t, "ctxfieldnever", map[int]siteWant{
		29: {execcheck.OK, w, true},
		80: {execcheck.OK, w, true},
	})
}

// TestSigAssert: an os.Signal a helper asserts to syscall.Signal before
// syscall.Kill is the signal given at the call (consul-template, exo):
// os.Kill to the group is ok, os.Interrupt a launcher, neither unknown.
func TestSigAssert(t *testing.T) {
	checkSites(t, "sigassert", map[int]siteWant{
		46: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-c.cmd.Process.Pid, sig) (in signal)), also after the direct child exited", false},
		65: {execcheck.Launcher, "syscall.Kill(-cmd.Process.Pid, sysSig) (in signalGroup)", false},
	})
}

// siteWant is what a site of a testdata package should say: its class,
// and its reason exactly (whole) or a part of it.
type siteWant struct {
	class  execcheck.Class
	reason string
	whole  bool
}

// checkSites runs the analyzer on the testdata package pkg and checks
// the sites at the lines of want: one there, with its class and reason.
// A package of several files may have sites on the same line of two of
// them: one of those matching is enough, whatever order they come in.
func checkSites(t *testing.T, pkg string, want map[int]siteWant) {
	t.Helper()
	res := analysistest.Run(t, analysistest.TestData(), execcheck.Analyzer, "example.com/t/"+pkg)
	atLine := map[int][]execcheck.Site{}
	for _, r := range res {
		for _, s := range r.Result.(*execcheck.Result).Sites {
			atLine[s.Posn.Line] = append(atLine[s.Posn.Line], s)
		}
	}
	for line, w := range want {
		sites := atLine[line]
		if len(sites) == 0 {
			t.Errorf("site at line %d: got none, want one", line)
			continue
		}
		matched := false
		for _, s := range sites {
			matched = matched || s.Class == w.class && (!w.whole || s.Reason == w.reason) && strings.Contains(s.Reason, w.reason)
		}
		if !matched {
			for _, s := range sites {
				t.Errorf("site at %s: got %s: %s, want %s: %s", s.Posn, s.Class, s.Reason, w.class, w.reason)
			}
		}
	}
}

// TestTestContext: a run that waits, inline in the test function (or
// subtest) that took t.Context(), has no cancel, and says why.
func TestTestContext(t *testing.T) {
	const w = "no cancel: the test's context (done only after the test function returns; the run ends in it before that), and no kill by hand"
	checkSites(t, "testctx", map[int]siteWant{
		14: {execcheck.OK, w, true},
		25: {execcheck.OK, w, true},
	})
}

// TestScopedContext: a context whose parent is never done and whose
// cancel is only deferred, or only handed to t.Cleanup, is done only
// after a run inline where it was made.
func TestScopedContext(t *testing.T) {
	const w = " (done only after the function that made it returns; the run ends in it before that), and no kill by hand"
	checkSites(t, "testctx", map[int]siteWant{
		17: {execcheck.OK, "no cancel: a context whose cancel only t.Cleanup calls (framework.go:16)" + w, true},
		28: {execcheck.OK, "no cancel: a context whose cancel is only deferred (framework.go:27)" + w, true},
	})
}

// TestConstLocals: a program named through a local variable set once
// to a constant is read as that constant.
func TestConstLocals(t *testing.T) {
	checkSites(t, "leaves", map[int]siteWant{
		60: {execcheck.OK, "a cancel kills the direct child (exec.CommandContext's default Cancel (Process.Kill)), and sleep starts no process", false},
		83: {execcheck.OK, "aplay starts no process", false},
	})
}

// TestLeaves: a fetcher, a compressor and a program that prints what
// the system holds start no process.
func TestLeaves(t *testing.T) {
	checkSites(t, "leaves", map[int]siteWant{
		94:  {execcheck.OK, "curl starts no process", false},
		98:  {execcheck.OK, "xz starts no process", false},
		102: {execcheck.OK, "xcode-select starts no process", false},
	})
}

// TestProgPath: a program named by exec.LookPath of a constant is read
// as that constant; a path set again, or joined to a directory, is not.
func TestProgPath(t *testing.T) {
	const w = "a cancel kills the direct child (exec.CommandContext's default Cancel (Process.Kill)), and "
	checkSites(t, "progpath", map[int]siteWant{
		21: {execcheck.OK, w + "ffmpeg starts no process: nothing outlives its kill", true},
		43: {execcheck.OK, `bash -c "make build" starts no background job`, false},
	})
}

// TestReadInline: a group kill after one Scan, or after a call the pipe
// is handed to, comes while the pipe is held: it covers, as a kill
// after a read to EOF here does not.
func TestReadInline(t *testing.T) {
	const w = "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited"
	checkSites(t, "readinline", map[int]siteWant{
		103: {execcheck.OK, w, true},
		125: {execcheck.OK, w, true},
	})
}

// TestTempScript: a shell script built from constants and temporary
// paths is read around the paths: one that waits for its jobs, or starts
// none, is no launcher.
func TestTempScript(t *testing.T) {
	checkSites(t, "tempscript", map[int]siteWant{
		28: {execcheck.OK, `sh -c "sleep 30 & echo $! > {pidFile}; wait" waits for its background jobs`, false},
		36: {execcheck.OK, `sh -c "trap '' TERM; touch {started}; while true; do sleep 1; done" starts no background job`, false},
		70: {execcheck.OK, `sh -c "sleep 30 & echo $! > {pidFile}; touch {started}; wait" waits for its background jobs`, false},
	})
}

// TestKillOnly: a package that kills process groups but runs no command
// (imports no os/exec) carries facts, and a caller's watch that kills
// through it is followed.
func TestKillOnly(t *testing.T) {
	checkSites(t, "facts/use", map[int]siteWant{
		89: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pgid, sig) (in SignalGroup) (in KillGroup)), also after the direct child exited", false},
	})
}

// TestFlagLeaves: rg and fd without a flag that starts a process are ok,
// and the reason names the flags it looked for; an argument execcheck
// cannot read (a pattern, a path) is data, and fmt.Sprintf("-C%d", n) is
// read as the flag it makes.
func TestFlagLeaves(t *testing.T) {
	checkSites(t, "leafflags", map[int]siteWant{
		21: {execcheck.OK, "a cancel kills the direct child (exec.CommandContext's default Cancel (Process.Kill)), and rg starts no process without --pre, --search-zip, --hostname-bin, -z: nothing outlives its kill (unless a RIPGREP_CONFIG_PATH config adds --pre or -z)", true},
		26: {execcheck.OK, "a cancel kills the direct child (exec.CommandContext's default Cancel (Process.Kill)), and fd starts no process without --exec, --exec-batch, --list-details, -x, -X, -l: nothing outlives its kill", true},
		42: {execcheck.OK, "rg starts no process without --pre", false},
		62: {execcheck.OK, "rg starts no process without --pre", false},
	})
}

// TestSubcommandLeaves: git rev-parse, git remote get-url, git
// for-each-ref, git ls-files and git describe start no process; git
// fetch, git remote update, git status, git describe --dirty and a
// subcommand execcheck cannot read are not leaves (their want comments
// in git.go).
func TestSubcommandLeaves(t *testing.T) {
	const w = "a cancel kills the direct child (exec.CommandContext's default Cancel (Process.Kill)), and "
	checkSites(t, "leafflags", map[int]siteWant{
		10: {execcheck.OK, w + "git rev-parse starts no process: nothing outlives its kill", true},
		16: {execcheck.OK, w + "git remote get-url starts no process: nothing outlives its kill", true},
		37: {execcheck.OK, w + "git for-each-ref starts no process: nothing outlives its kill", true},
		41: {execcheck.OK, w + "git ls-files starts no process: nothing outlives its kill", true},
		52: {execcheck.OK, w + "git describe starts no process: nothing outlives its kill", true},
	})
}

// TestFuncVar: a run through a package variable that init sets to a
// function killing the group after a grace is ok, and says when the kill
// comes; one replaced outside init is not followed.
func TestFuncVar(t *testing.T) {
	checkSites(t, "funcvar", map[int]siteWant{
		68: {execcheck.OK, "while Wait has not returned (it comes when <-resChan did not fire within the grace", false},
		96: {execcheck.Unknown, "passed to runner, which execcheck cannot follow", false},
	})
}

// TestFieldFunc: a kill through a field of function type the package
// fills once, with a literal or a named function, is followed with the
// call's pid and signal; a field given two functions is not, and says so.
func TestFieldFunc(t *testing.T) {
	checkSites(t, "fieldfunc", map[int]siteWant{
		49: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(pid, sig) (in the function g.deps.kill holds))", false},
		69: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pid, sig) (in killGroup))", false},
		87: {execcheck.Unknown, "its pid goes with a signal to t.signal, which execcheck cannot follow", true},
	})
}

// TestPgidReaped: a group found by Getpgid of a pid that Wait reaps is
// reached only while the direct child runs; kill(-pid), a child never
// reaped, one reaped only after the kill, and a group looked up right
// after Start by a helper and kept, keep their group.
func TestPgidReaped(t *testing.T) {
	checkSites(t, "pgidreaped", map[int]siteWant{
		56:  {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited while Wait, which waits for the pipe's EOF, has not returned (the watch ends with defer close(done)); a descendant that holds no pipe is not reached once the direct child and the pipe's holders are gone", true},
		80:  {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pgid, syscall.SIGKILL) (in killGroup)), also after the direct child exited", true},
		98:  {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pgid, syscall.SIGKILL) (in killThenReap)), also after the direct child exited", true},
		202: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pgid, syscall.SIGKILL) (in killGroup)), also after the direct child exited", true},
		241: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pgid, syscall.SIGTERM) (in signalTerm); no SIGKILL follows: a process that ignores the signal survives), also after the direct child exited", false},
	})
}

// TestStatePoll: a kill after a select that polls a stop channel, not
// the command's end (end_chans.go), is no state-guarded kill; nor is one
// on a timer's arm beside a stop channel's, nor the run's own timeout
// and its grace, in the function that starts the command.
func TestStatePoll(t *testing.T) {
	checkSites(t, "stateguard", map[int]siteWant{
		298: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		373: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		414: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)), also after the direct child exited", false},
	})
}

// TestWatchEnd: a watch the run ends once Wait returns is no watch after
// the direct child exits where Wait is bounded; where a pipe keeps Wait
// waiting, or the run sends the kill's own message, or the kill follows
// the end, it is the kill by hand it was.
func TestWatchEnd(t *testing.T) {
	checkSites(t, "watchend", map[int]siteWant{
		58:  {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		93:  {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited while Wait, which waits for the pipe's EOF, has not returned (the watch ends with close(done) after Wait); a descendant that holds no pipe is not reached once the direct child and the pipe's holders are gone", true},
		114: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)) only until Wait returns (the watch ends with defer close(done)), and nothing holds Wait long after the direct child exits (no output pipe); git is not a known launcher", true},
		135: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		179: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pgid, syscall.SIGKILL)), also after the direct child exited while Wait, which waits for the pipe's EOF, has not returned (the watch ends with close(done) after Wait); a descendant that holds no pipe is not reached once the direct child and the pipe's holders are gone", true},
		227: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		306: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited while Wait, which waits for the pipe's EOF, has not returned (the watch ends with waitCh <- cmd.Wait() in a goroutine); a descendant that holds no pipe is not reached once the direct child and the pipe's holders are gone", true},
		324: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		389: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
	})
}

// TestFindProcessGroup: os.FindProcess(-pgid) is the group's process, so
// its Signal reaches the group; a group kill made only after the
// function that kills tested Getpgid comes only while the child is
// unreaped (kitproj/kit before and after its fix).
func TestFindProcessGroup(t *testing.T) {
	checkSites(t, "findprocess", map[int]siteWant{
		62:  {execcheck.OK, "a kill by hand reaches the group (target.Signal(syscall.SIGKILL) (in stopGroup)), also after the direct child exited", true},
		119: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pid, syscall.SIGKILL)), also after the direct child exited", true},
	})
}

// TestFactory: a command made through a value of exec.CommandContext's
// (or exec.Command's) type is taken as made by it, and says so; one of
// another type stays unknown.
func TestFactory(t *testing.T) {
	checkSites(t, "factory", map[int]siteWant{
		54: {execcheck.OK, "no cancel: exec.Command, and no kill by hand; the command is made by newCmd, of exec.Command's type, whose value execcheck cannot see, taken as exec.Command", true},
		61: {execcheck.Unknown, "the command comes from where execcheck cannot follow it (a parameter, a field set elsewhere, a call it cannot see)", true},
	})
}

// TestLockHeld: a kill that takes a lock the run holds until Wait
// returns comes after Wait; one whose lock the run let go comes while
// it waits.
func TestLockHeld(t *testing.T) {
	checkSites(t, "lockheld", map[int]siteWant{
		60: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
		87: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-l.cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
	})
}

// TestCtxNever: a context parameter every call fills with
// context.Background() is never done, and so is one every call fills
// with such a parameter, passed on.
func TestCtxNever(t *testing.T) {
	checkSites(t, "ctxnever", map[int]siteWant{
		21: {execcheck.OK, "no cancel: a context that is never done, and no kill by hand", true},
		97: {execcheck.OK, "no cancel: a context that is never done, and no kill by hand", true},
	})
}

// TestProcHanded: a process an exported method hands out may be killed
// where execcheck does not look; one kept in the package is followed.
// Where the package's own cancel falls short (server.go), that finding
// stands, saying what it does not follow.
func TestProcHanded(t *testing.T) {
	checkSites(t, "prochanded", map[int]siteWant{
		27: {execcheck.Unknown, "its process is kept in the result of (*Cmd).Process (prochanded.go:34), which other packages get, where execcheck does not follow what kills it", true},
		44: {execcheck.OK, "no cancel: exec.Command, and no kill by hand", true},
	})
}

// TestSoleImpl: a call of an unexported interface's method is a call of
// the one type of the package that implements it.
func TestSoleImpl(t *testing.T) {
	checkSites(t, "soleimpl", map[int]siteWant{
		38: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
	})
}

// TestIllTyped: a package that does not type-check is checked where it
// does; a run in code that does not, or a command passed to it, is
// unknown.
func TestIllTyped(t *testing.T) {
	checkSites(t, "illtyped", map[int]siteWant{
		29: {execcheck.Unknown, "the function Client does not type-check (gen.Flags has no type): execcheck does not follow it", true},
		43: {execcheck.Unknown, "the command is passed to configure (illtyped.go:42), whose code does not type-check: execcheck cannot follow it", true},
		53: {execcheck.Unknown, "the function Serve does not type-check (r.client has no type): execcheck does not follow it", true},
	})
}

// TestWrapped: a run through another package's type that embeds
// *exec.Cmd is listed, as unknown, not skipped.
func TestWrapped(t *testing.T) {
	checkSites(t, "wrapped/wrap", map[int]siteWant{
		30: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-c.Process.Pid, syscall.SIGKILL)), also after the direct child exited", true},
	})
	checkSites(t, "wrapped/use", map[int]siteWant{
		19: {execcheck.Unknown, "the command is run by (*wrap.Command).Run, a method of a type of another package that embeds *exec.Cmd: what makes and kills it is in that package, whose sites execcheck lists there", true},
	})
}

// TestKeptAfter: a kill through a process kept in another struct's field
// is placed where the method that makes it is called: after Wait on a
// test of the context (keptafter's Step: hang above), or on a watch of
// the context (ok).
func TestKeptAfter(t *testing.T) {
	checkSites(t, "keptafter", map[int]siteWant{
		70: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-en.Process.Pid, syscall.SIGKILL)", false},
	})
}

// TestGroupFailed: goa's signalProcess. The direct child signalled only
// where the group kill failed adds nothing for a command in a group of
// its own; the signal, a local given SIGTERM or SIGKILL, is the weakest,
// and the reason says so.
func TestGroupFailed(t *testing.T) {
	checkSites(t, "groupfailed", map[int]siteWant{
		35: {execcheck.OK, "a kill by hand reaches the group (syscall.Kill(-pid, sig) (in signalProcess); no SIGKILL is sure to follow (the signal is a variable given several, the weakest counted): a process that ignores it may survive), also after the direct child exited", true},
	})
}

// TestLeafParams: rg run by a helper of the package is read with the
// arguments each call gives it, and a slice a function returns with
// each of its returns; a call that asks for --pre, or a helper others
// may call, is not a leaf (want comments).
func TestLeafParams(t *testing.T) {
	const w = "a cancel kills the direct child (exec.CommandContext's default Cancel (Process.Kill)), and rg starts no process without --pre, --search-zip, --hostname-bin, -z: nothing outlives its kill"
	checkSites(t, "leafparams", map[int]siteWant{
		15: {execcheck.OK, w, false},
		50: {execcheck.OK, w, false},
	})
}
