package registry

import (
	"fmt"
	"math"
	"strconv"

	"github.com/scenecs/scenecs/schedule"
)

// MaxPeriod is the longest period, in seconds, that a tick may have: a
// day ([schedule.MaxPeriod]). It bounds a tick rate from below
// ([CheckTickRate]: one tick a day), and a fixed step
// ([Schedule.SetStep]) and an interval ([Settings].Interval) from above.
// A longer period means nothing for a scene, and in nanoseconds it would
// soon overflow a time.Duration (-hz 1e-10 is a period of 317 years, more
// than a Duration holds).
const MaxPeriod = schedule.MaxPeriod

// MinTickRate is the lowest tick rate [CheckTickRate] accepts, in ticks
// per second: one tick a day.
const MinTickRate = 1 / MaxPeriod

// CheckTickRate returns nil if hz is a tick rate, in ticks per second,
// whose period fits: a finite number, above 0, at least [MinTickRate]
// (a period of at most [MaxPeriod], a day); else an error that says why,
// such as
//
//	tick rate 1e-10: its period, 317 years, is longer than a day (the lowest rate is one tick a day, 1.15741e-05 per second)
//
// Every place that takes a rate from a user (scene-run's -hz flags, a
// journal's header, a room's Spec) checks it with this, and adds its own
// upper bound.
func CheckTickRate(hz float64) error {
	switch {
	case math.IsNaN(hz) || math.IsInf(hz, 0):
		return fmt.Errorf("tick rate %v: not a finite number of ticks per second", hz)
	case hz <= 0:
		return fmt.Errorf("tick rate %v: must be above 0 ticks per second", hz)
	case hz < MinTickRate:
		return fmt.Errorf("tick rate %v: its period, %s, is longer than a day (the lowest rate is one tick a day, %.6g per second)", hz, periodString(1/hz), MinTickRate)
	}
	return nil
}

// periodString says a period of secs seconds in the largest unit that
// fits: "317 years", "1.16 days", "9e+04 s".
func periodString(secs float64) string {
	const day, year = 86400, 365.25 * 86400
	switch {
	case secs >= year:
		return strconv.FormatFloat(secs/year, 'g', 3, 64) + " years"
	case secs >= day:
		return strconv.FormatFloat(secs/day, 'g', 3, 64) + " days"
	}
	return strconv.FormatFloat(secs, 'g', 3, 64) + " s"
}
