#!/usr/bin/env bash
# run.sh: measure an execcheck binary on the corpus of real fix pairs.
#
# usage: execcheck/corpus/run.sh /path/to/execcheck [pair-id ...]
#
# For every pair of pairs.tsv (or only the ids given), it materializes the
# parent and the fix trees from the fetched mirrors under /work/.mirror
# (git archive, into $EC_CORPUS_TMP, default /tmp/ec-corpus/trees), runs
# `execcheck -sites -json` on the pair's package (GOFLAGS=-mod=mod,
# GOWORK=off: a module is loaded alone, as its go.mod says, even in a
# repository with a go.work, where -mod=mod is refused; GOTOOLCHAIN=local;
# test files included, as -sites does by default), and
# prints expected vs got before and after the fix, right or wrong, then the
# totals per half and the confirmed rate of the other findings (others.tsv).
#
# The mirrors: each pair's fetch_source column (github:owner/name) is what
# the session's `fetch` tool takes; it brings the repository to
# /work/.mirror/owner+name/repo. If one is missing, the script says which,
# and that pair is counted as not run.
#
# Needs: git, tar, python3, go (Go 1.26, taken from PATH or /usr/local/go/bin),
# and the Go module proxy for the pairs' dependencies.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
ec=${1:?usage: run.sh /path/to/execcheck [pair-id ...]}
ec=$(cd "$(dirname "$ec")" && pwd)/$(basename "$ec")
shift
[ -x "$ec" ] || { echo "run.sh: $ec is not executable" >&2; exit 1; }
export PATH=$PATH:/usr/local/go/bin
mirrors=${EC_MIRRORS:-/work/.mirror}
tmp=${EC_CORPUS_TMP:-/tmp/ec-corpus}
mkdir -p "$tmp/trees" "$tmp/out"

# materialize OWNER+NAME COMMIT: print the tree's directory.
materialize() {
	local repo=$1 c=$2 g=$mirrors/$1/repo d lst missing
	d=$tmp/trees/$repo@${c:0:12}
	if [ ! -d "$d" ]; then
		rm -rf "$d.tmp" && mkdir -p "$d.tmp" || return 1
		# a snapshot lacks blobs of 4 MiB and more: leave out every blob it lacks
		lst=$(git --git-dir="$g" ls-tree -r --format='%(objecttype) %(objectname) %(path)' "$c" | awk '$1=="blob"') || return 1
		missing=$(echo "$lst" | awk '{print $2}' | git --git-dir="$g" cat-file --batch-check | awk '$2=="missing"{print $1}')
		local ex=()
		if [ -n "$missing" ]; then
			mapfile -t ex < <(echo "$lst" | awk -v m="$missing" 'BEGIN{n=split(m,a,"\n"); for(i=1;i<=n;i++) miss[a[i]]=1} ($2 in miss){ $1=""; $2=""; sub(/^  /,""); print ":(exclude,literal)" $0 }')
		fi
		git --git-dir="$g" archive "$c" -- . "${ex[@]}" 2>/dev/null | tar -x -C "$d.tmp" || return 1
		mv "$d.tmp" "$d"
	fi
	echo "$d"
}

# run_side ID OWNER+NAME COMMIT MODULE_DIR PACKAGE OUT: execcheck -sites -json
#
# A pair that does not load as its tree stands gets a script prep/ID.sh,
# run once in the tree's module directory (see prep/README.md). A module
# whose go.mod asks for a newer Go than the local one is analyzed by
# "$ec.goVERSION", the same source built with that toolchain, under
# GOTOOLCHAIN=goVERSION (the proxy serves it):
#   GOTOOLCHAIN=go1.27rc1 go build -o "$ec.go1.27rc1" ./cmd/execcheck
run_side() {
	local d bin tc=local need
	d=$(materialize "$2" "$3") || { echo "materialize failed" > "$6.err"; echo 1 > "$6.rc"; return; }
	if [ -f "$here/prep/$1.sh" ] && [ ! -f "$d/.ec-prepped" ]; then
		( cd "$d/$4" && bash "$here/prep/$1.sh" ) > "$6.prep" 2>&1 || { echo "prep/$1.sh failed: see $6.prep" > "$6.err"; echo 1 > "$6.rc"; return; }
		touch "$d/.ec-prepped"
	fi
	bin=$ec
	need=$(awk '$1=="go"{print $2; exit}' "$d/$4/go.mod")
	if [ -n "$need" ] && [ "$(printf '%s\n%s\n' "$need" "$(go env GOVERSION | sed 's/^go//')" | sort -V | tail -1)" = "$need" ] && [ "go$need" != "$(go env GOVERSION)" ]; then
		bin=$ec.go$need tc=go$need
		[ -x "$bin" ] || { echo "the module needs go $need: build $bin (GOTOOLCHAIN=go$need go build -o $bin ./cmd/execcheck)" > "$6.err"; echo 1 > "$6.rc"; return; }
	fi
	( cd "$d/$4" && GOFLAGS=-mod=mod GOWORK=off GOTOOLCHAIN=$tc "$bin" -sites -json "./$5" > "$6.json" 2> "$6.err"; echo $? > "$6.rc" )
}

ids=" $* "
tail -n +2 "$here/pairs.tsv" | while IFS=$'\t' read -r id half key repo src fix parent moddir pkg sb sa eb ea rb ra; do
	[ "$ids" = "  " ] || [[ "$ids" == *" $id "* ]] || continue
	m=${repo/\//+}
	# drop the outputs of an earlier run, so a pair not run now is scored
	# as not run rather than with stale results
	rm -f "$tmp/out/$id".before.* "$tmp/out/$id".after.*
	if [ ! -d "$mirrors/$m/repo" ]; then
		echo "$id: mirror $mirrors/$m/repo missing: fetch $src (the fetch tool), then run again" >&2
		continue
	fi
	run_side "$id" "$m" "$parent" "$moddir" "$pkg" "$tmp/out/$id.before"
	run_side "$id" "$m" "$fix" "$moddir" "$pkg" "$tmp/out/$id.after"
done

python3 "$here/score.py" "$here/pairs.tsv" "$here/others.tsv" "$tmp/out" ${@+"$@"}
