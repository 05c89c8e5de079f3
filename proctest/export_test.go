package proctest

// VerifyTestMainCode runs VerifyTestMain without exiting.
var VerifyTestMainCode = verifyTestMain
