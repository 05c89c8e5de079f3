// Package lib runs functions in goroutines of its own, as a robot SDK's
// utilities do; Call runs one where it stands.
package lib

// SafeGo runs f in a goroutine of its own.
func SafeGo(f func()) { // want SafeGo:`^go params \[0\]$`
	SafeGoWith(f, nil)
}

// SafeGoWith runs f in a goroutine that recovers its panic, then calls
// done.
func SafeGoWith(f func(), done func()) { // want SafeGoWith:`^go params \[0 1\]$`
	go func() {
		defer func() {
			_ = recover()
			if done != nil {
				done()
			}
		}()
		f()
	}()
}

// Call runs f where it stands.
func Call(f func()) { f() }

// RunWait runs f in a goroutine and waits for it, as testing.T.Run
// does: f comes before what follows the call.
func RunWait(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}
