//go:build !race

package main

// raceEnabled reports whether the tests run under the race detector,
// which slows a host's rooms several times over.
const raceEnabled = false
