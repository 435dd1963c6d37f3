package scenerun

import (
	"context"
	"flag"
	"io"
	"time"
)

// A Command is a command a [Program] adds to scene-run's own (run,
// query, dump, ...): a game's "play", or the fleet's "host" and "rooms",
// which package scenerun/fleetcmd gives, so that a program that does not
// add them links no NATS.
type Command struct {
	// Name is the command's word: "{prog} NAME [flags] ...".
	Name string
	// Usage is the command's lines in the program's help ("{prog}" for
	// the program's name), without a trailing newline.
	Usage string
	// Run runs the command with its arguments (those after NAME). An
	// error made with [UsageError] is the caller's mistake (exit code 2,
	// printed after "{prog} NAME: "); any other ends the command with
	// exit code 1, printed as it is.
	Run func(ctx context.Context, env *Env, args []string) error
}

// Env is what a [Command] runs with: the program it was added to and the
// command line's writers, with the flag handling of scene-run's own
// commands.
type Env struct {
	c *cli
}

// Program returns the program the command runs in: its name, its
// components (Register), its scenes. Its zero fields have their
// defaults (Name "scene-run", the embedded scenes).
func (e *Env) Program() Program { return e.c.Program }

// Stdout and Stderr return the command line's writers.
func (e *Env) Stdout() io.Writer { return e.c.stdout }

// Stderr returns the writer of errors and logs.
func (e *Env) Stderr() io.Writer { return e.c.stderr }

// FlagSet returns a flag set named name whose -h prints usage ("{prog}"
// is the program's name) and the flags, and whose errors are returned,
// not fatal: parse it with [Env.Parse].
func (e *Env) FlagSet(name, usage string) *flag.FlagSet { return e.c.newFlags(name, usage) }

// Parse parses args with fs: a bad flag is a usage error (exit 2); -h
// prints the usage and ends the command with exit code 0.
func (e *Env) Parse(fs *flag.FlagSet, args []string) error { return parseFlags(fs, args) }

// UsageError returns an error that is the caller's mistake (a bad
// argument): the command ends with exit code 2, the message printed
// after "{prog} COMMAND: ".
func UsageError(msg string) error { return &usageError{msg: msg} }

// RateVar defines a flag of a tick rate, checked as scene-run's -hz flags
// are: a number in (0, max] whose period is at most a day.
func RateVar(fs *flag.FlagSet, p *float64, name string, value, max float64, usage string) {
	rateVar(fs, p, name, value, max, usage)
}

// IntervalVar defines a flag of a duration above 0, such as "250ms";
// hint, if not empty, is said when the flag is given as 0.
func IntervalVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, hint, usage string) {
	intervalVar(fs, p, name, value, hint, usage)
}

// CheckSceneFormat returns a usage error unless path names a scene
// file by its extension (.yaml, .yml, .xml or .json).
func CheckSceneFormat(path string) error { return checkSceneFormat(path) }
