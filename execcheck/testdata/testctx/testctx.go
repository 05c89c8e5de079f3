// Package testctx holds commands run under a test's t.Context(), which
// is done only after the test function returns.
package testctx
