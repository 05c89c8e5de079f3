#!/usr/bin/env bash
# P49 (tilt-dev/tilt, both sides): go.mod requires vbom.ml/util, whose
# go.mod the proxy refuses (403), so -mod=mod cannot load the module
# graph. The snapshot's vendored copy of that one module is made a
# module of its own and replaced in. The package analyzed
# (internal/engine/local) is the repository's own code, unchanged.
set -euo pipefail
v=vendor/vbom.ml/util
[ -d "$v" ] || { echo "prep P49: $v missing" >&2; exit 1; }
mkdir -p third_party
cp -r "$v" third_party/vbom-util
printf 'module vbom.ml/util\n' > third_party/vbom-util/go.mod
go mod edit -replace vbom.ml/util=./third_party/vbom-util
