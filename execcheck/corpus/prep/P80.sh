#!/usr/bin/env bash
# P80 (mark3labs/kit, both sides): go.mod requires
# github.com/charmbracelet/x/exp/charmtone at a pseudo-version the module
# proxy does not serve (403), an indirect dependency of the TUI. It is
# replaced by v0.1.0, which the proxy serves; the package's code is
# unchanged (internal/core does not import it).
set -euo pipefail
go mod edit -replace github.com/charmbracelet/x/exp/charmtone=github.com/charmbracelet/x/exp/charmtone@v0.1.0
