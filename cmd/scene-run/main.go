// Command scene-run runs, watches, queries, validates and dumps scenecs
// scenes.
//
// Usage:
//
//	scene-run [run] [flags] [SCENE]          run a scene (default: the embedded cubes.yaml)
//	scene-run query [-json] [-ticks N] SCENE SELECTOR
//	scene-run dump [-format yaml|xml|json] [-ticks N] SCENE
//	scene-run validate SCENE...
//	scene-run components
//	scene-run schema [-format json|xsd]
//
// Exit codes: 0 ok, 1 scene errors, 2 usage errors.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// Exit codes.
const (
	exitOK    = 0
	exitScene = 1
	exitUsage = 2
)

// usageError marks an error that is the caller's mistake (exit 2).
type usageError struct {
	msg string
	raw bool // print msg alone, without the command prefix
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errFlagHelp reports that -h was given; the usage has been printed.
var errFlagHelp = errors.New("help requested")

func main() {
	// Ctrl-C or a SIGTERM interrupts a load (of any command) and stops a
	// run early, with its summary.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const topUsage = `scene-run runs, watches, queries, validates and dumps scenecs scenes.

Usage:
  scene-run [run] [flags] [SCENE]     run SCENE (default: the embedded cubes.yaml)
  scene-run query [-json] [-ticks N] SCENE SELECTOR
  scene-run dump [-format yaml|xml|json] [-ticks N] SCENE
  scene-run validate SCENE...
  scene-run components
  scene-run schema [-format json|xsd]

Run "scene-run COMMAND -h" for a command's flags.
Exit codes: 0 ok, 1 scene errors, 2 usage errors.
`

// run is main without the process: it returns the exit code. ctx ends on
// an interrupt.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := "run"
	if len(args) > 0 {
		switch args[0] {
		case "run", "query", "dump", "validate", "components", "schema":
			cmd, args = args[0], args[1:]
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, topUsage)
			return exitOK
		}
	}
	var err error
	switch cmd {
	case "run":
		err = cmdRun(ctx, args, stdout, stderr)
	case "query":
		err = cmdQuery(ctx, args, stdout, stderr)
	case "dump":
		err = cmdDump(ctx, args, stdout, stderr)
	case "validate":
		err = cmdValidate(ctx, args, stdout, stderr)
	case "components":
		err = cmdComponents(args, stdout, stderr)
	case "schema":
		err = cmdSchema(args, stdout, stderr)
	}
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFlagHelp):
		return exitOK
	case errors.As(err, &ue) && ue.raw:
		fmt.Fprintln(stderr, ue.msg)
		return exitUsage
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "scene-run %s: %s\n", cmd, ue.msg)
		return exitUsage
	default:
		msg := err.Error()
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		fmt.Fprint(stderr, msg)
		return exitScene
	}
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errFlagHelp
		}
		return &usageError{msg: err.Error()}
	}
	return nil
}
