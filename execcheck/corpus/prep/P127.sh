#!/usr/bin/env bash
# P127 (randalmurphal/orc, both sides): go.mod requires
# github.com/randalmurphal/llmkit at a pseudo-version the module proxy
# refuses (403). That commit is taken from the fetched mirror of the public
# llmkit repository (fetch github:randalmurphal/llmkit) and replaced in,
# without a version, so it also stands for the llmkit v1.0.0 that devflow
# and flowgraph require. The package analyzed is orc's code, unchanged.
set -euo pipefail
g=${EC_MIRRORS:-/work/.mirror}/randalmurphal+llmkit/repo
c=ccc2f4a497c93758675dd64328a17192628c43d8
git --git-dir="$g" cat-file -e "$c^{commit}" || { echo "prep P127: fetch github:randalmurphal/llmkit (commit $c)" >&2; exit 1; }
mkdir -p _llmkit
git --git-dir="$g" archive "$c" | tar -x -C _llmkit
go mod edit -replace github.com/randalmurphal/llmkit=./_llmkit
