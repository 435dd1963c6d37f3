package scenerun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/selector"
)

const queryUsage = `Usage: {prog} query [-json] [-ticks N] [-emit SELECTOR:EVENT@TICK]... SCENE SELECTOR

Loads SCENE, runs N ticks (emitting the -emit events when they are due),
and prints the entities SELECTOR matches in
document order, one per line: the entity's id, or its path (ids or 0-based
child indexes from the root, joined by "/"). With -json, prints one JSON
array of the entities in the dump format. No match prints nothing.

Flags:
`

func (c *cli) cmdQuery(ctx context.Context, args []string) error {
	stdout := c.stdout
	fs := c.newFlags("query", queryUsage)
	asJSON := fs.Bool("json", false, "print a JSON array of the matches in the dump format")
	var ticks int
	var hz float64
	countVar(fs, &ticks, "ticks", 0, "run `n` ticks before querying")
	rateVar(fs, &hz, "hz", 60, maxHz, "ticks per second of scene time, a `rate` in (0, 1000000]")
	sched := scheduleVar(fs)
	var emits []emitSpec
	emitVar(fs, &emits)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("expected SCENE and SELECTOR, got %d arguments", fs.NArg())
	}
	rt, err := c.newRuntime(0)
	if err != nil {
		return err
	}
	sched.apply(rt.reg)
	if _, err := rt.load(ctx, fs.Arg(0)); err != nil {
		return err
	}
	sel := fs.Arg(1)
	if _, err := rt.reg.QueryAll(sel); err != nil {
		return selectorError(err)
	}
	em, err := newEmitter(rt, emits, c.stderr)
	if err != nil {
		return err
	}
	if err := em.checkTicks(ticks, "-ticks"); err != nil {
		return err
	}
	if err := tickN(ctx, rt, ticks, hz, em); err != nil {
		return err
	}
	es, err := rt.reg.QueryAll(sel)
	if err != nil {
		return selectorError(err)
	}
	if *asJSON {
		out := export.DumpEntities(rt.reg, es)
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return nil
	}
	for _, p := range export.EntityPaths(rt.reg, es) {
		fmt.Fprintln(stdout, p)
	}
	return nil
}

// selectorError turns an error of compiling the selector into a usage
// error. A syntax error (a *selector.Error, however it is wrapped)
// prints alone, as "selector:1:COL: message"; another error prints as
// it says.
func selectorError(err error) error {
	msg := err.Error()
	var se *selector.Error
	if errors.As(err, &se) {
		msg = se.Error()
	}
	return &usageError{msg: msg, raw: true}
}
