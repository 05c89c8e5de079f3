#!/usr/bin/env bash
# P90 (crawlab-team/crawlab, both sides): services/log_test.go calls
# GetLocalLog, which the package no longer defines at these commits, so
# the package's tests do not type-check (nor build with go test). The
# broken test file is removed; the site (services/task.go) and the rest
# of the package are unchanged.
set -euo pipefail
rm -f services/log_test.go
