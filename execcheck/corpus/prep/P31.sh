#!/usr/bin/env bash
# P31 (SocialGouv/iterion): the proxy refuses the pseudo-version of
# github.com/SocialGouv/claw-code-go that go.mod requires (403), and the
# snapshot's vendor/ lacks some large blobs (modernc.org/sqlite), so
# neither -mod=mod nor -mod=vendor loads. The snapshot's vendored copy of
# that one module is made a module of its own and replaced in; the rest
# comes from the proxy (go mod tidy -e). The package analyzed
# (pkg/dispatcher) is the repository's own code, unchanged.
set -euo pipefail
v=vendor/github.com/SocialGouv/claw-code-go
[ -d "$v" ] || { echo "prep P31: $v missing" >&2; exit 1; }
mkdir -p third_party
cp -r "$v" third_party/claw-code-go
printf 'module github.com/SocialGouv/claw-code-go\n\ngo 1.24\n' > third_party/claw-code-go/go.mod
rm -rf vendor
go mod edit -replace github.com/SocialGouv/claw-code-go=./third_party/claw-code-go
(cd third_party/claw-code-go && GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod tidy -e)
GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod tidy -e
