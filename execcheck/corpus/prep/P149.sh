#!/usr/bin/env bash
# P149 (sparkwing-dev/sparkwing, both sides): go.mod requires
# github.com/sparkwing-dev/sparks-core/templates v0.26.0, which the module
# proxy refuses (403). That version is the tag templates/v0.26.0 (commit
# ebbf4bd) of the public sparks-core repository: its templates/ directory
# is taken from the fetched mirror (fetch github:sparkwing-dev/sparks-core)
# and replaced in. The package analyzed (sparkwing/) does not import it; the
# module graph needs its go.mod. The package's code is unchanged.
set -euo pipefail
g=${EC_MIRRORS:-/work/.mirror}/sparkwing-dev+sparks-core/repo
c=ebbf4bdd011e7b80946e49b77789124ba0c776e9
git --git-dir="$g" cat-file -e "$c^{commit}" || { echo "prep P149: fetch github:sparkwing-dev/sparks-core (commit $c)" >&2; exit 1; }
mkdir -p _sparks_core
git --git-dir="$g" archive "$c" templates | tar -x -C _sparks_core
go mod edit -replace github.com/sparkwing-dev/sparks-core/templates=./_sparks_core/templates
