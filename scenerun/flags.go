package scenerun

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/scenecs/scenecs/registry"
)

// Checked flags: a value that makes no sense (NaN, an infinity, a negative
// or zero rate or interval) is a flag error, reported by the flag package
// as `invalid value "NaN" for flag -hz: ...`, so that every subcommand
// refuses it the same way, with exit code 2, before doing any work.

// maxHz bounds -hz.
const maxHz = 1e6

// rateFlag is a float64 flag that must be finite and in (0, max], and a
// tick rate whose period fits (registry.CheckTickRate: at most a day).
type rateFlag struct {
	v   *float64
	max float64
}

func (f rateFlag) String() string {
	if f.v == nil {
		return "0"
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f rateFlag) Set(s string) error {
	x, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return errors.New("not a number")
	case err != nil || math.IsInf(x, 0) || math.IsNaN(x):
		return fmt.Errorf("must be a finite number in (0, %s]", formatMax(f.max))
	case x <= 0 || x > f.max:
		return fmt.Errorf("must be in (0, %s]", formatMax(f.max))
	}
	if err := registry.CheckTickRate(x); err != nil {
		return err // a period longer than a day
	}
	*f.v = x
	return nil
}

func formatMax(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// rateVar defines a rateFlag.
func rateVar(fs *flag.FlagSet, p *float64, name string, value, max float64, usage string) {
	*p = value
	fs.Var(rateFlag{p, max}, name, usage)
}

// countFlag is an int flag that must be >= 0.
type countFlag struct{ v *int }

func (f countFlag) String() string {
	if f.v == nil {
		return "0"
	}
	return strconv.Itoa(*f.v)
}

func (f countFlag) Set(s string) error {
	x, err := strconv.ParseInt(s, 0, strconv.IntSize)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return errors.New("out of range")
	case err != nil:
		return errors.New("not an integer")
	case x < 0:
		return errors.New("must be >= 0")
	}
	*f.v = int(x)
	return nil
}

// countVar defines a countFlag.
func countVar(fs *flag.FlagSet, p *int, name string, value int, usage string) {
	*p = value
	fs.Var(countFlag{p}, name, usage)
}

// intervalFlag is a duration flag that must be > 0 when given. hint says
// what to do instead of giving 0.
type intervalFlag struct {
	v    *time.Duration
	hint string
}

func (f intervalFlag) String() string {
	if f.v == nil || *f.v == 0 {
		return ""
	}
	return f.v.String()
}

func (f intervalFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return errors.New("not a duration (such as 50ms, 2s)")
	case d <= 0:
		msg := "must be > 0"
		if f.hint != "" {
			msg += " (" + f.hint + ")"
		}
		return errors.New(msg)
	}
	*f.v = d
	return nil
}

// intervalVar defines an intervalFlag.
func intervalVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, hint, usage string) {
	*p = value
	fs.Var(intervalFlag{p, hint}, name, usage)
}
