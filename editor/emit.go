package editor

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/scenecs/scenecs/ecs"
)

// An event sent is a command too: its handlers may set, add or remove
// components and make entities. What they did is recorded while the
// event runs (capture): the components they touched (seen through the
// World's observers) with their values before (from a copy of the
// World's values taken first) and after, and the entities made. Undo
// puts the values back and destroys what was made; redo makes them again
// and sets the values after. An event whose handlers destroyed entities
// cannot be undone (a Conflict saying so).

// Sent is what [Emit] did: the data of its "change" event (op "emit").
type Sent struct {
	Op     string          `json:"op"`
	Ref    string          `json:"ref"`
	Entity string          `json:"entity"`
	Event  string          `json:"event"`
	Detail json.RawMessage `json:"detail"`
	// Errors are what the event's handlers reported (they are also
	// reported as the run's errors).
	Errors []string `json:"errors,omitempty"`
}

// capture records what an event's handlers do.
type capture struct {
	seen      map[ecs.Entity]map[ecs.ID]bool
	order     []ecsTouch
	created   []ecs.Entity
	destroyed int
}

type ecsTouch struct {
	e  ecs.Entity
	id ecs.ID
}

// observe records, through the World's observers, the components the
// handlers touch (set in place or through the Registry, added, removed)
// and the entities they make or destroy, until the returned function is
// called.
func (ed *Editor) observe(c *capture) (stop func()) {
	touched := func(_ *ecs.World, _ ecs.Event, e ecs.Entity, id ecs.ID) {
		if c.seen[e] == nil {
			c.seen[e] = map[ecs.ID]bool{}
		}
		if !c.seen[e][id] {
			c.seen[e][id] = true
			c.order = append(c.order, ecsTouch{e, id})
		}
	}
	ids := []ecs.ObserverID{
		ed.w.Observe(ecs.ComponentSet, touched),
		ed.w.Observe(ecs.ComponentAdded, touched),
		ed.w.Observe(ecs.ComponentRemoved, touched),
		ed.w.Observe(ecs.EntityCreated, func(_ *ecs.World, _ ecs.Event, x ecs.Entity, _ ecs.ID) { c.created = append(c.created, x) }),
		ed.w.Observe(ecs.EntityDestroyed, func(*ecs.World, ecs.Event, ecs.Entity, ecs.ID) { c.destroyed++ }),
	}
	return func() {
		for _, id := range ids {
			ed.w.Unobserve(id)
		}
	}
}

// nameOf returns the name of the component stored as id on e (had: the
// names e's components had before), or "" if none.
func (ed *Editor) nameOf(e ecs.Entity, id ecs.ID, had map[string][]any) string {
	for _, name := range ed.reg.EntityComponents(e) {
		if cid, ok := ed.existingID(name); ok && cid == id {
			return name
		}
	}
	for name := range had {
		if cid, ok := ed.existingID(name); ok && cid == id {
			return name
		}
	}
	return ""
}

// existingID returns the ecs ID that stores component name, if that
// storage exists (it registers no instance of a component).
func (ed *Editor) existingID(name string) (ecs.ID, bool) {
	c, ok := ed.reg.Component(name)
	if !ok {
		return 0, false
	}
	return c.ExistingID(name)
}

// worldValues copies every component value of every entity.
func (ed *Editor) worldValues() map[ecs.Entity]map[string][]any {
	out := make(map[ecs.Entity]map[string][]any, ed.w.Len())
	for e := range ed.w.All() {
		m := map[string][]any{}
		for _, name := range ed.reg.EntityComponents(e) {
			if v, err := ed.reg.Values(e, name); err == nil {
				m[name] = cloneValues(v)
			}
		}
		out[e] = m
	}
	return out
}

func (c *Emit) do(ed *Editor) (*Result, *Entry, error) {
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	var detail any
	if len(c.Detail) > 0 {
		if err := json.NewDecoder(bytes.NewReader(c.Detail)).Decode(&detail); err != nil {
			return nil, nil, because(Invalid, "the detail is not JSON: ", err)
		}
	}
	raw := c.Detail
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	sent := &Sent{Op: "emit", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e), Event: c.Event, Detail: raw}
	var before map[ecs.Entity]map[string][]any
	capt := &capture{seen: map[ecs.Entity]map[ecs.ID]bool{}}
	stop := func() {}
	if ed.listened(e, c.Event, !c.NoBubbles) {
		before = ed.worldValues()
		stop = ed.observe(capt)
	}
	ed.reg.Events().Emit(e, c.Event, detail, !c.NoBubbles)
	stop()
	// What the handlers reported goes to the caller, and back to the
	// run's own report.
	if err := ed.reg.TakeErrors(); err != nil {
		sent.Errors = ErrorLines(err)
		ed.reg.ReportError(err)
	}
	return &Result{Sent: sent}, ed.emitEntry(sent, capt, before), nil
}

// listened reports whether a handler may hear event name sent to e (on
// e, or on an ancestor if it bubbles): if none, nothing is captured.
func (ed *Editor) listened(e ecs.Entity, name string, bubbles bool) bool {
	for x, ok := e, true; ok; x, ok = ed.w.Parent(x) {
		if ed.reg.Events().Listening(x, name) {
			return true
		}
		if !bubbles {
			break
		}
	}
	return false
}

// touch is one component an event's handlers changed.
type touch struct {
	s           *slot
	name        string
	before, now []any // nil: the entity did not have it
}

// emitUndo puts back what an event's handlers did: the components they
// touched (ts) and the entities they made (tops, the made entities
// whose parent was not made too; snaps and places while undone).
type emitUndo struct {
	ts        []touch
	tops      []*slot
	snaps     []*entSnap
	places    []place
	destroyed int
}

// emitEntry makes the history entry of an event sent, from what its
// handlers did (c) and the World's values before (before).
func (ed *Editor) emitEntry(sent *Sent, c *capture, before map[ecs.Entity]map[string][]any) *Entry {
	x := &Entry{Op: "emit", Ref: sent.Ref, Entity: sent.Entity, Component: sent.Event, Summary: "send " + sent.Event + " to " + sent.Entity}
	u := &emitUndo{destroyed: c.destroyed}
	made := map[ecs.Entity]bool{}
	for _, m := range c.created {
		made[m] = true
	}
	for _, m := range c.created {
		if !ed.w.Alive(m) {
			continue
		}
		if p, ok := ed.w.Parent(m); ok && made[p] {
			continue
		}
		u.tops = append(u.tops, ed.hist.slotOf(m))
	}
	for _, t := range c.order {
		if made[t.e] || !ed.w.Alive(t.e) {
			continue
		}
		name := ed.nameOf(t.e, t.id, before[t.e])
		if name == "" {
			continue // storage the Registry does not name (a tag of its own)
		}
		if c, ok := ed.reg.Component(name); ok && c.ReadOnly() {
			continue // the world transform: its owner follows position, rotation, scale
		}
		tc := touch{s: ed.hist.slotOf(t.e), name: name, before: before[t.e][name]}
		tc.now, _ = ed.values(t.e, name)
		u.ts = append(u.ts, tc)
	}
	if len(u.ts)+len(u.tops) > 0 {
		x.Summary += " (" + strconv.Itoa(len(u.ts)) + " components changed, " + strconv.Itoa(len(c.created)) + " entities made)"
	}
	u.snaps, u.places = make([]*entSnap, len(u.tops)), make([]place, len(u.tops))
	x.edit = u
	return x
}

func (u *emitUndo) undo(ed *Editor, what string) error {
	if u.destroyed > 0 {
		return fail(Conflict, "cannot %s: its handlers destroyed %d entities, which undo cannot bring back", what, u.destroyed)
	}
	for i := len(u.tops) - 1; i >= 0; i-- {
		sn, p, err := ed.unmake(u.tops[i], what)
		if err != nil {
			return err
		}
		u.snaps[i], u.places[i] = sn, p
	}
	for i := len(u.ts) - 1; i >= 0; i-- {
		if err := ed.putBack(u.ts[i].s, u.ts[i].name, u.ts[i].before, nil, what); err != nil {
			return err
		}
	}
	return nil
}

func (u *emitUndo) redo(ed *Editor, what string) error {
	for i := range u.tops {
		if _, err := ed.restore(u.places[i], u.snaps[i], what); err != nil {
			return err
		}
	}
	for _, t := range u.ts {
		if err := ed.putBack(t.s, t.name, t.now, nil, what); err != nil {
			return err
		}
	}
	return nil
}

func (u *emitUndo) size() int64 {
	n := int64(0)
	for _, t := range u.ts {
		n += 48 + int64(len(t.name)) + valuesBytes(t.before) + valuesBytes(t.now)
	}
	for i := range u.tops {
		n += 40 + u.snaps[i].size()
	}
	return n
}

func (u *emitUndo) slots(f func(*slot)) {
	for _, t := range u.ts {
		f(t.s)
	}
	for i, s := range u.tops {
		f(s)
		f(u.places[i].parent)
		u.snaps[i].eachSlot(f)
	}
}
