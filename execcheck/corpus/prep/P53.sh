#!/usr/bin/env bash
# P53 (daytonaio/daytona, module apps/daemon), run in the module directory:
# the repository root has a go.work, under which GOFLAGS=-mod=mod is refused;
# and github.com/daytonaio/common-go and .../libs/api-client-go are not served
# by the module proxy (403): take them from the tree's own libs/.
set -euo pipefail
[ -f ../../go.work ] && mv ../../go.work ../../go.work.off
go mod edit -require github.com/daytonaio/common-go@v0.0.0-00010101000000-000000000000 \
	-replace github.com/daytonaio/common-go=../../libs/common-go \
	-replace github.com/daytonaio/daytona/libs/api-client-go=../../libs/api-client-go
