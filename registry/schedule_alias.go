package registry

import "github.com/scenecs/scenecs/schedule"

// The schedule (its phases, order, rates, workers and the scene clock)
// lives in package [schedule]; the Registry registers its systems and
// component ticks there as nodes. These aliases keep the names a program
// writes (registry.Access, registry.PhaseUpdate, ...) as they were.
type (
	// Schedule is [schedule.Schedule]: the Registry's is
	// [Registry.Schedule].
	Schedule = schedule.Schedule
	// Settings is [schedule.Settings].
	Settings = schedule.Settings
	// Access is [schedule.Access].
	Access = schedule.Access
	// Clock is [schedule.Clock].
	Clock = schedule.Clock
	// SystemInfo is [schedule.SystemInfo].
	SystemInfo = schedule.SystemInfo
	// PhaseInfo is [schedule.PhaseInfo].
	PhaseInfo = schedule.PhaseInfo
	// SystemStats is [schedule.SystemStats].
	SystemStats = schedule.SystemStats
	// Ambiguity is [schedule.Ambiguity].
	Ambiguity = schedule.Ambiguity
	// PanicError is [schedule.PanicError]: a hook that panicked during
	// [Registry.Tick] or [schedule.Schedule.RunOnce].
	PanicError = schedule.PanicError
)

// The phases of a tick, in the order they run (see [schedule.PhaseInput]).
const (
	// PhaseInput is [schedule.PhaseInput].
	PhaseInput = schedule.PhaseInput
	// PhasePreUpdate is [schedule.PhasePreUpdate].
	PhasePreUpdate = schedule.PhasePreUpdate
	// PhasePhysics is [schedule.PhasePhysics].
	PhasePhysics = schedule.PhasePhysics
	// PhaseUpdate is [schedule.PhaseUpdate].
	PhaseUpdate = schedule.PhaseUpdate
	// PhasePostUpdate is [schedule.PhasePostUpdate].
	PhasePostUpdate = schedule.PhasePostUpdate
)

// PhaseNames returns the names of the phases, in the order they run
// ([schedule.PhaseNames]).
func PhaseNames() []string { return schedule.PhaseNames() }

var (
	// ErrReentrantTick is [schedule.ErrReentrantTick]: returned by a Tick
	// called from inside a running one.
	ErrReentrantTick = schedule.ErrReentrantTick
	// ErrMustBeExclusive is [schedule.ErrMustBeExclusive].
	ErrMustBeExclusive = schedule.ErrMustBeExclusive
)
