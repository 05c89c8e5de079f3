#!/usr/bin/env bash
# Usage: WINEPREFIX=DIR/prefix .ci/wine/downstream.sh
#
# A user's module, built for windows and run under Wine (see exec): the
# Go files in downstream/ in a module of their own, with a replace to this
# checkout. Once as is, once with EXECTEST_STRICT=1 (a runner that never
# runs the command skips, then fails: its test wants each in turn).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mod=$(mktemp -d)
trap 'rm -rf "$mod"' EXIT
cp "$here"/downstream/*.go "$mod/"
cat >"$mod/go.mod" <<MOD
module example.com/downstream

go 1.26

require github.com/exectest/exectest v0.0.0

replace github.com/exectest/exectest => $root
MOD
cp "$root/go.sum" "$mod/go.sum"
cd "$mod"
GOFLAGS=-mod=mod go mod tidy
for strict in 0 1; do
	echo "downstream: EXECTEST_STRICT=$strict"
	EXECTEST_STRICT=$strict GOOS=windows go test -count=1 -exec "$here/exec" .
done
