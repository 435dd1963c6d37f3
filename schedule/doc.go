// Package schedule answers one question: in which order, on which
// workers, at which time does each hook run?
//
// A [Schedule] runs nodes ([Node]): a registry registers one per system
// and one per component that ticks, and the schedule knows nothing of
// them but their [Info] (a name, a [Kind], [Settings], which hooks they
// have) and how to run a [Unit] of their work. It places their hooks in
// phases that run in a fixed order ([PhaseNames]; [PhasePhysics] at a
// fixed step, [Schedule.SetStep]), orders them within a phase by
// before/after constraints, once per change of what it holds
// ([Schedule.Systems]), runs them at their rates ([Settings].Every,
// Interval), and runs the nodes whose declared [Access] does not
// conflict side by side on its workers ([Schedule.SetWorkers]), with the
// same result for any number of workers.
//
// It holds the scene clock: [Schedule.Tick] moves it, [Schedule.Time]
// reads it, [Schedule.Clock] and [Schedule.SetClock] save and restore it
// with the fixed-step phases' clocks. A registry's Time is this clock;
// there is no other.
//
// What the schedule needs of the program around it (the components its
// nodes' access names, where errors go, what starts before a tick) is a
// [Host]. docs/schedule.md describes the schedule from a scene's and a
// program's side.
package schedule
