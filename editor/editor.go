package editor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Options configure an Editor. Zero fields take defaults.
type Options struct {
	// Reloader, if not nil, is the scene's Reloader: commands asked to
	// be saved are then also written into the scene's files, and the
	// scene brought up to date with them. Without it they are refused
	// (an [Error] of kind [NoFiles]).
	Reloader *live.Reloader
	// Limits are the limits scene files are read with (zero fields:
	// [scenefile.DefaultLimits]): a create or clone that would nest
	// entities deeper than MaxDepth, or make the scene hold more than
	// MaxEntities, is refused, so that what the editor builds dumps to a
	// file that loads back.
	Limits scenefile.Limits
	// Journal, if not nil, receives every command applied as a JSON
	// [Line], stamped with Ticks.
	Journal io.Writer
	// Ticks, if not nil, returns the ticks run so far (the journal's
	// stamps).
	Ticks func() uint64
	// Publish, if not nil, is told of every change: event "change" with
	// a [*Change] or [*Sent], and "history" with a [HistoryEvent].
	Publish func(event string, data any)
	// MaxHistory bounds the entries the history keeps (default
	// [DefaultMaxHistory]); MaxHistoryBytes bounds the bytes they hold
	// (the values they replaced and put back, the snapshots of the
	// entities they destroyed, the bytes of the files they saved;
	// default [DefaultMaxHistoryBytes]). The oldest go first.
	MaxHistory      int
	MaxHistoryBytes int64
}

// Defaults of Options.
const (
	DefaultMaxHistory      = 1000
	DefaultMaxHistoryBytes = 64 << 20
)

// Editor makes commands on one Registry's World (and its scene's files)
// and keeps their history. Use it on the goroutine that ticks the
// Registry, between ticks.
type Editor struct {
	reg  *registry.Registry
	w    *ecs.World
	opt  Options
	hist history
	// journalErr is the journal's first write error (it stops there).
	journalErr error
}

// New returns an Editor of reg's World.
func New(reg *registry.Registry, opt Options) *Editor {
	def := scenefile.DefaultLimits()
	if opt.Limits.MaxDepth <= 0 {
		opt.Limits.MaxDepth = def.MaxDepth
	}
	if opt.Limits.MaxEntities <= 0 {
		opt.Limits.MaxEntities = def.MaxEntities
	}
	if opt.MaxHistory <= 0 {
		opt.MaxHistory = DefaultMaxHistory
	}
	if opt.MaxHistoryBytes <= 0 {
		opt.MaxHistoryBytes = DefaultMaxHistoryBytes
	}
	return &Editor{reg: reg, w: reg.World(), opt: opt}
}

// Result is what a command did.
type Result struct {
	// Change is the change a command made (published as a "change"
	// event); nil for Emit, Undo and Redo.
	Change *Change
	// Sent is the event Emit sent (published as a "change" event).
	Sent *Sent
	// Step is what Undo or Redo did.
	Step *Step
	// Entity is the entity Create or Clone made (Created) or Reparent
	// moved; zero for the others.
	Entity  ecs.Entity
	Created bool
}

// Apply makes the command c: it checks it against the World (a refusal
// changes nothing), makes it through the transaction (see [Editor]),
// publishes what changed, records it in the history and writes its
// line into the journal. The error is an [*Error].
func (ed *Editor) Apply(c Command) (*Result, error) {
	// A command's event deliveries (an emit, the handlers its changes
	// wake) share one budget (registry.Limits.MaxDeliveries).
	evs := ed.reg.Events()
	defer evs.CloseWindow(evs.OpenWindow("inspector call"))
	res, x, err := c.do(ed)
	if err != nil {
		return nil, err
	}
	switch {
	case res.Change != nil:
		ed.publish("change", res.Change)
	case res.Sent != nil:
		ed.publish("change", res.Sent)
	}
	if x != nil {
		ed.record(x)
	}
	l := c.Line()
	ed.note(&l)
	return res, nil
}

// Reloaded is what a hot reload does to the history: one that changed
// the scene (d not empty) clears it, since the values its entries would
// put back may no longer be what a reload left, and writes a "reload"
// line into the journal; one that changed nothing (the watcher reading
// a save the editor just wrote) or failed keeps it.
func (ed *Editor) Reloaded(d *live.Diff, err error) {
	if err != nil || d == nil || d.Empty() {
		return
	}
	ed.clear("the scene's files were reloaded (" + d.Summary() + "): changes made before cannot be undone")
	ed.note(&Line{Op: "reload"})
}

// publish tells Options.Publish of a change.
func (ed *Editor) publish(event string, data any) {
	if ed.opt.Publish != nil {
		ed.opt.Publish(event, data)
	}
}

// note writes l into the journal, if there is one, stamped with the
// ticks run so far. A write error stops the journal and is reported once
// as the run's error.
func (ed *Editor) note(l *Line) {
	if ed.opt.Journal == nil || ed.journalErr != nil {
		return
	}
	if ed.opt.Ticks != nil {
		l.Tick = ed.opt.Ticks()
	}
	b, err := json.Marshal(l)
	if err == nil {
		_, err = ed.opt.Journal.Write(append(b, '\n'))
	}
	if err != nil {
		ed.journalErr = err
		ed.reg.ReportError(fmt.Errorf("editor: writing the journal: %w (it stops here)", err))
	}
}

// Kind says why a command was refused, or failed.
type Kind int

// The kinds of [Error].
const (
	// Invalid: the command is malformed (a bad attribute string, body,
	// id or event name).
	Invalid Kind = iota + 1
	// NotFound: an entity, component or property it names does not
	// exist.
	NotFound
	// Conflict: the scene or its files refuse it now (a read-only
	// component, an id in use, a file edited since, limits, an entity
	// gone since).
	Conflict
	// NoFiles: it asks to be saved, and the Editor has no
	// Options.Reloader.
	NoFiles
	// Failed: the system failed (a file could not be written, a change
	// could not be undone).
	Failed
	// Nothing: there is nothing to undo, or to redo.
	Nothing
)

// Error is a command refused or failed. Unless it says otherwise,
// nothing changed.
type Error struct {
	Kind Kind
	// Msg says what and why, in the words of the command (without the
	// name of a package before it).
	Msg string
	// Err is the cause, if any ([*registry.AttrError] for a bad
	// attribute string).
	Err error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// fail returns an Error of kind k, its message formatted.
func fail(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// because returns an Error of kind k saying msg and then the cause err.
func because(k Kind, msg string, err error) *Error {
	return &Error{Kind: k, Msg: msg + err.Error(), Err: err}
}

// writeErr is the Error of a registry write that failed: [Conflict]
// for a read-only component (with the registry's reason), else k.
func writeErr(k Kind, err error) *Error {
	if errors.Is(err, registry.ErrReadOnly) {
		return &Error{Kind: Conflict, Msg: strings.TrimPrefix(err.Error(), "registry: "), Err: err}
	}
	return &Error{Kind: k, Msg: err.Error(), Err: err}
}

// saveKind is the kind of a save refused or failed with err: [Conflict]
// for what the scene or its files make impossible, [Failed] for anything
// else.
func saveKind(err error) Kind {
	for _, want := range []error{live.ErrNoSource, live.ErrFromMixin, live.ErrFromPrefab, live.ErrFileChanged, live.ErrReadOnly, live.ErrCannotEdit} {
		if errors.Is(err, want) {
			return Conflict
		}
	}
	return Failed
}

// ErrorLines returns an error's messages, one per positioned error of a
// [scenefile.ErrorList], else one per line.
func ErrorLines(err error) []string {
	var list scenefile.ErrorList
	if errors.As(err, &list) {
		out := make([]string, 0, len(list))
		for _, e := range list {
			out = append(out, e.Error())
		}
		return out
	}
	var out []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
