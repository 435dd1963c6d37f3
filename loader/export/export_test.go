package export

// CaptureEvery is how many entities a capture copies between two looks
// at the clock, for the tests of package export_test.
const CaptureEvery = captureEvery
