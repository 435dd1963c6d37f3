//go:build race

package selector_test

func init() { chainN = 2_000 }
