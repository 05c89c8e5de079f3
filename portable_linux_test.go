package exectest_test

const onLinux = true
