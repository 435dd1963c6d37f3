//go:build !linux && !darwin

package live

// exchangeFiles: this system cannot swap two files in one step.
func exchangeFiles(a, b string) error { return errNoExchange }
