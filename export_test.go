package exectest

// VerifyTestMainCode runs verifyTestMain without exiting, for its tests.
var VerifyTestMainCode = verifyTestMain
