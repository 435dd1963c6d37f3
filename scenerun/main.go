package scenerun

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

// Exit codes of Program.Run.
const (
	ExitOK    = 0 // the command did its job
	ExitScene = 1 // a scene (or a tick) failed: errors printed on stderr
	ExitUsage = 2 // the command line was wrong: the problem printed on stderr
)

// Program is a program that offers the command set: its name, its own
// components, and the scene run loads when given none. The zero Program
// is scene-run itself.
type Program struct {
	// Name is the program's name in usage texts and messages
	// ("scene-run" if empty).
	Name string
	// Register, if not nil, registers the program's own components and
	// systems. Every command makes a fresh Registry (one per scene), with
	// the built-ins of package components registered first (b: their
	// storage and the transform state, for components that read or move
	// entities), and then calls Register on it; an error it returns ends
	// the command with exit code 1.
	Register func(reg *registry.Registry, b *components.Builtins) error
	// Scenes and DefaultScene name the scene "run" loads without a SCENE
	// argument: the file DefaultScene in Scenes. If Scenes is nil, it is
	// the embedded cubes.yaml of package scenes.
	Scenes       fs.FS
	DefaultScene string
	// Help, if not empty, is printed in the program's help after the
	// commands it offers: the lines of the commands the program adds
	// itself (a "play" that runs its own game loop, say).
	Help string
	// Commands are commands added to the built-in ones, each listed in
	// the help by its Usage: the fleet's host and rooms
	// (scenerun/fleetcmd), which cmd/scene-run adds. A command named as
	// a built-in one replaces it.
	Commands []Command
}

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

// Main runs the command line os.Args[1:] and exits the process with its
// exit code. Ctrl-C or a SIGTERM interrupts a load (of any command) and
// stops a run early, with its summary.
func (p Program) Main() {
	inv := invocation{arg0: os.Args[0]}
	if pc, file, _, ok := goruntime.Caller(1); ok {
		if f := goruntime.FuncForPC(pc); f != nil && strings.HasPrefix(f.Name(), "main.") {
			inv.mainDir = filepath.Dir(file) // the caller's file is in the main package
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := p.run(ctx, inv, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// topUsage is the program's help; {prog} stands for its name, here and
// in every command's usage text.
const topUsage = `{prog} runs, watches, queries, validates and dumps scenecs scenes.

Usage:
  {prog} [run] [flags] [SCENE]     run SCENE (default: the embedded {default})
  {prog} query [-json] [-ticks N] [-emit S:EVENT@T]... SCENE SELECTOR
  {prog} dump [-format yaml|xml|json] [-ticks N] [-emit S:EVENT@T]... SCENE
  {prog} validate [-strict] SCENE...
  {prog} components
  {prog} replay [-format json|yaml|xml] SCENE JOURNAL
  {prog} schema [-format json|xsd] [SCENE]
  {prog} schedule [-json] [-ticks N] [SCENE]

Run "{prog} COMMAND -h" for a command's flags.
Exit codes: 0 ok, 1 scene errors, 2 usage errors.
`

// builtinCommands are the commands of every Program.
var builtinCommands = []string{"run", "query", "dump", "validate", "components", "schema", "replay", "schedule"}

// cli is one invocation of the command set.
type cli struct {
	Program
	stdout, stderr io.Writer
	invoked        invocation // how the user ran the program (Main), or zero (Run)
	// bare says the program was run without arguments: the default
	// scene in real time with the inspector, until interrupted.
	bare bool
}

// Run runs one command line (args without the program's name) writing
// to stdout and stderr, and returns the exit code: ExitOK, ExitScene or
// ExitUsage. ctx ending interrupts a load and stops a run, as Ctrl-C
// does under Main.
func (p Program) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return p.run(ctx, invocation{}, args, stdout, stderr)
}

// run is Run, knowing how the program was invoked when Main calls it.
func (p Program) run(ctx context.Context, inv invocation, args []string, stdout, stderr io.Writer) int {
	c := &cli{Program: p, stdout: stdout, stderr: stderr, invoked: inv}
	if c.Name == "" {
		c.Name = "scene-run"
	}
	if c.Scenes == nil {
		c.Scenes, c.DefaultScene = scenes.FS, scenes.Default
	}
	cmd := "run"
	if len(args) == 0 {
		// Nothing asked: show the default scene running, live, until
		// Ctrl-C, with the inspector on a loopback port (the bounded
		// run of earlier versions is `-ticks N`).
		c.bare = true
		args = []string{"-inspect", "127.0.0.1:0"}
	}
	var added *Command
	if len(args) > 0 {
		for i := range c.Commands {
			if c.Commands[i].Name == args[0] {
				added = &c.Commands[i]
			}
		}
		switch {
		case added != nil:
			cmd, args = args[0], args[1:]
		case slices.Contains(builtinCommands, args[0]):
			cmd, args = args[0], args[1:]
		case args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
			fmt.Fprint(stdout, c.help())
			return ExitOK
		}
	}
	var err error
	switch {
	case added != nil:
		err = added.Run(ctx, &Env{c}, args)
	case cmd == "run":
		err = c.cmdRun(ctx, args)
	case cmd == "query":
		err = c.cmdQuery(ctx, args)
	case cmd == "dump":
		err = c.cmdDump(ctx, args)
	case cmd == "validate":
		err = c.cmdValidate(ctx, args)
	case cmd == "components":
		err = c.cmdComponents(args)
	case cmd == "schema":
		err = c.cmdSchema(ctx, args)
	case cmd == "replay":
		err = c.cmdReplay(ctx, args)
	case cmd == "schedule":
		err = c.cmdSchedule(ctx, args)
	}
	var ue *usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errFlagHelp):
		return ExitOK
	case errors.As(err, &ue) && ue.raw:
		fmt.Fprintln(stderr, ue.msg)
		return ExitUsage
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "%s %s: %s\n", c.Name, cmd, ue.msg)
		return ExitUsage
	default:
		msg := err.Error()
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		fmt.Fprint(stderr, msg)
		return ExitScene
	}
}

// help is the program's help: the commands, the program's own, and how
// to learn more.
func (c *cli) help() string {
	head, tail, _ := strings.Cut(c.usage(topUsage), "\n\nRun ")
	for _, cmd := range c.Commands {
		if cmd.Usage != "" {
			head += "\n" + c.usage(strings.TrimRight(cmd.Usage, "\n"))
		}
	}
	if c.Help != "" {
		head += "\n" + strings.TrimRight(c.Help, "\n")
	}
	return head + "\n\nRun " + tail
}

// usage fills a usage text in with the program's name and default scene.
func (c *cli) usage(text string) string {
	return strings.NewReplacer("{prog}", c.Name, "{default}", c.DefaultScene).Replace(text)
}

// newFlags returns a flag set that reports errors instead of exiting.
func (c *cli) newFlags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprint(c.stderr, c.usage(usage))
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
