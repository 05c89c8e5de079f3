#!/usr/bin/env bash
# P159 (purpleidea/mgmt, both sides): engine/resources embeds
# http_server_ui/main.wasm, a build output that is not committed; an empty
# file stands for it. virt.go, virt_util.go and augeas.go need the libvirt
# and augeas C libraries; they are the files mgmt's own novirt and
# noaugeas tags leave out (//go:build !novirt, !noaugeas), and nothing
# else uses them: they are removed, as those tags would. The site's file,
# exec.go, is unchanged.
set -euo pipefail
d=engine/resources
[ -d "$d/http_server_ui" ] || { echo "prep P159: no $d/http_server_ui" >&2; exit 1; }
: > "$d/http_server_ui/main.wasm"
rm -f "$d/virt.go" "$d/virt_util.go" "$d/augeas.go"
