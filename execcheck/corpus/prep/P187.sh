#!/usr/bin/env bash
# P187 (ejpir/gantry, both sides): go.mod requires
# github.com/containerd/nerdbox v0.2.1 and pseudo-versions of
# github.com/erofs/go-erofs and github.com/Microsoft/go-winio, which the
# module proxy refuses (403). The package analyzed (guest/crunshim) and its
# tests import only the standard library: the requirements are dropped, and
# nothing the package compiles changes.
set -euo pipefail
for m in $(go mod edit -json | python3 -c 'import json,sys; print(" ".join(r["Path"] for r in json.load(sys.stdin).get("Require") or []))'); do
	go mod edit -droprequire="$m"
done
rm -f go.sum
