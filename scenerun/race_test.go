//go:build race

package scenerun

// The race detector slows ticks tenfold: fewer of them still run every
// batch in parallel many times.
func init() { determinismTicks = 120 }
