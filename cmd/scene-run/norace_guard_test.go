//go:build !race

package main

// raceDetector: the tests run under the race detector, which slows the
// hosts they start from this binary several times.
const raceDetector = false
