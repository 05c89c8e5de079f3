package execcheck

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"path"
	"strings"
)

// shells run a script given with -c (cmd: /c): whether the script starts
// background jobs decides whether the shell is a launcher.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ash": true, "ksh": true, "mksh": true,
	"fish": true, "busybox": true, "cmd": true, "powershell": true, "pwsh": true,
}

// shims start the real program and may exit before it: a command that
// runs one is a launcher.
var shims = map[string]bool{
	"npm": true, "npx": true, "pnpm": true, "pnpx": true, "yarn": true,
	"mise": true, "rtx": true, "asdf": true,
}

// leaves start no process of their own, whatever their arguments:
// killing one leaves nothing behind to hold a pipe or keep running.
// Programs that may (find -exec, xargs, env, tar's compressors, sort's
// --compress-program, git, ssh) are not here. lsof's one child, its
// stat/readlink helper, closes every descriptor but its own request
// pipes at once and exits when lsof dies. ffmpeg and ffprobe run their
// codecs, filters and protocols in threads of their own process. aplay
// (alsa-utils) and paplay (pulseaudio's pacat) play in their own process;
// the sound server paplay may autospawn is a daemon meant to outlive it.
// curl and wget fetch in their own process; the compressors (gzip, xz,
// zstd: threads) and unzip run no program; the rest print what the
// system or a file holds (xcode-select -p, sw_vers, getconf, lscpu).
var leaves = map[string]bool{
	"sleep": true, "true": true, "false": true, "cat": true, "echo": true, "yes": true,
	"printf": true, "head": true, "tail": true, "wc": true, "tee": true, "ls": true,
	"pwd": true, "id": true, "uname": true, "date": true,
	"grep": true, "egrep": true, "fgrep": true, "stat": true, "du": true, "df": true,
	"ps": true, "pgrep": true, "pidof": true, "kill": true, "readlink": true, "realpath": true,
	"basename": true, "dirname": true, "whoami": true, "hostname": true, "cut": true,
	"tr": true, "uniq": true, "base64": true, "md5sum": true, "sha1sum": true,
	"sha256sum": true, "sha512sum": true, "mkdir": true, "rm": true, "cp": true,
	"mv": true, "ln": true, "chmod": true, "touch": true, "jq": true, "lsof": true,
	"ffmpeg": true, "ffprobe": true, "aplay": true, "paplay": true,
	"curl": true, "wget": true, "gzip": true, "gunzip": true, "bzip2": true, "xz": true,
	"zstd": true, "unzip": true, "cksum": true, "b2sum": true, "cmp": true, "diff": true,
	"comm": true, "seq": true, "od": true, "xxd": true, "strings": true, "file": true,
	"nproc": true, "getconf": true, "arch": true, "sw_vers": true, "xcode-select": true,
	"sysctl": true, "lscpu": true, "lsblk": true, "free": true, "uptime": true, "getent": true,
}

// escapers are words in a command line that start a descendant outside
// the process group: only a cgroup (cancelpolicy.Contain) stops those.
var escapers = []string{"setsid", "set -m", "nohup", "disown", "daemon"}

// program reads what a command runs from the arguments of exec.Command
// (after the context, for CommandContext): whether it may be a launcher,
// which exits at once and leaves its work running, and whether anything
// in it leaves the process group. constOf reads an argument as a constant;
// nameOf reads the program as a constant or a path named by one
// (prog_path.go); scriptOf (if not nil) reads a shell's script built from
// more than constants (script_text.go).
func program(constOf, nameOf, scriptOf func(ast.Expr) (string, bool), args []ast.Expr, variadic bool) progInfo {
	if len(args) == 0 {
		return progInfo{Launcher: true, Why: "the program is not given"}
	}
	consts := make([]string, 0, len(args))
	allConst := !variadic
	for i, a := range args {
		read := constOf
		if i == 0 {
			read = nameOf
		}
		if s, ok := read(a); ok {
			consts = append(consts, s)
		} else {
			allConst = false
			consts = append(consts, "")
		}
	}
	var pi progInfo
	for _, s := range consts {
		pi.noteEscaper(s)
	}
	name := consts[0]
	if name == "" {
		pi.Launcher = true
		pi.Why = fmt.Sprintf("the program (%s) is not a constant: it may be a launcher, which exits at once and leaves its work running", types.ExprString(args[0]))
		return pi
	}
	base := trimExe(path.Base(strings.ReplaceAll(name, `\`, "/")))
	pi.Name = base
	switch {
	case shims[base]:
		pi.Launcher = true
		pi.Why = fmt.Sprintf("%s is a launcher shim: it may exit before the program it starts", base)
	case shells[base]:
		script, found := "", false
		for i, s := range consts[1:] {
			if s == "-c" || strings.EqualFold(s, "/c") || s == "-Command" {
				found = true
				if i+2 < len(consts) {
					script = consts[i+2]
					if script == "" && scriptOf != nil {
						script, _ = scriptOf(args[i+2])
						pi.noteEscaper(script)
					}
				}
				break
			}
		}
		switch {
		case !found && !allConst:
			pi.Launcher = true
			pi.Why = fmt.Sprintf("%s runs a script execcheck cannot read: it may start background jobs and exit", base)
		case !found:
			pi.Launcher = true
			pi.Why = fmt.Sprintf("%s runs a script file: it may start background jobs and exit", base)
		case script == "":
			pi.Launcher = true
			pi.Why = fmt.Sprintf("%s -c runs a script execcheck cannot read: it may start background jobs and exit", base)
		case background(script) && waitsForJobs(script) && pi.Contain == "":
			// The waiting shape: the shell outlives its jobs, so a group
			// kill in Cancel finds them all.
			pi.Why = fmt.Sprintf("%s -c %q waits for its background jobs", base, script)
		case background(script):
			pi.Launcher = true
			pi.Why = fmt.Sprintf("%s -c %q starts a background job", base, script)
		default:
			pi.Why = fmt.Sprintf("%s -c %q starts no background job", base, script)
		}
	case leaves[base]:
		pi.Leaf = true
		pi.Why = fmt.Sprintf("%s starts no process: nothing outlives its kill", base)
	default:
		pi.Why = fmt.Sprintf("%s is not a known launcher", base)
	}
	return pi
}

// noteEscaper notes the first escaper s runs, if none is noted yet.
func (pi *progInfo) noteEscaper(s string) {
	for _, w := range escapers {
		if s != "" && strings.Contains(s, w) && pi.Contain == "" {
			pi.Contain = fmt.Sprintf("the command line runs %s", w)
		}
	}
}

// background reports whether a shell script starts a job in the
// background: an & that is not part of &&, >&, &> or |&.
func background(script string) bool {
	for i := 0; i < len(script); i++ {
		if script[i] != '&' {
			continue
		}
		prev, next := byte(0), byte(0)
		if i > 0 {
			prev = script[i-1]
		}
		if i+1 < len(script) {
			next = script[i+1]
		}
		if next == '&' {
			i++
			continue
		}
		if prev == '>' || prev == '<' || prev == '|' || next == '>' {
			continue
		}
		return true
	}
	return false
}

// waitsForJobs reports whether a shell script ends with the wait
// builtin, which returns only once its background jobs have ended.
func waitsForJobs(script string) bool {
	last := strings.TrimSpace(script)
	if i := strings.LastIndexAny(last, ";&\n"); i >= 0 {
		last = strings.TrimSpace(last[i+1:])
	}
	f := strings.Fields(last)
	return len(f) > 0 && f[0] == "wait"
}

func constString(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}
