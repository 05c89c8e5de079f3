#!/usr/bin/env bash
# P51 (kubernetes/node-problem-detector, both sides): go.sum's hash of
# github.com/euank/go-kmsg-parser v2.0.1+incompatible/go.mod no longer matches
# what the proxy serves (the tag was moved), and sum.golang.org has no record
# of it (404), so -mod=mod refuses to load. The snapshot's vendored copy of that
# one module is made a module of its own and replaced in. The package analyzed
# (pkg/custompluginmonitor/plugin) is the repository's own code, unchanged.
set -euo pipefail
v=vendor/github.com/euank/go-kmsg-parser
[ -d "$v" ] || { echo "prep npd: $v missing" >&2; exit 1; }
mkdir -p third_party
cp -r "$v" third_party/go-kmsg-parser
printf 'module github.com/euank/go-kmsg-parser\n\ngo 1.11\n' > third_party/go-kmsg-parser/go.mod
rm -rf vendor
sed -i '/github.com\/euank\/go-kmsg-parser/d' go.sum
go mod edit -replace github.com/euank/go-kmsg-parser=./third_party/go-kmsg-parser
# k8s.io/test-infra (a test-only requirement) requires vbom.ml/util, whose go.mod
# the proxy refuses (403); no package of it is built: a stub module stands in.
mkdir -p third_party/vbom-util
printf 'module vbom.ml/util\n' > third_party/vbom-util/go.mod
go mod edit -replace vbom.ml/util=./third_party/vbom-util
