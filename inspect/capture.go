package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/scenecs/scenecs/ecs"
)

// An event sent through the API is a command too: its handlers may set,
// add or remove components and make entities. What they did is recorded
// while the event runs (capture): the components they touched (the
// Registry's component events, through a tap) with their values before
// (from a copy of the World's values taken first) and after, and the
// entities made. Undo puts the values back and destroys what was made;
// redo makes them again and sets the values after. An event whose
// handlers destroyed entities cannot be undone (409 saying so).

// touch is one component an event's handlers changed.
type touch struct {
	s           *slot
	name        string
	before, now []any // nil: the entity did not have it
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
func (in *Inspector) observe(c *capture) (stop func()) {
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
		in.w.Observe(ecs.ComponentSet, touched),
		in.w.Observe(ecs.ComponentAdded, touched),
		in.w.Observe(ecs.ComponentRemoved, touched),
		in.w.Observe(ecs.EntityCreated, func(_ *ecs.World, _ ecs.Event, x ecs.Entity, _ ecs.ID) { c.created = append(c.created, x) }),
		in.w.Observe(ecs.EntityDestroyed, func(*ecs.World, ecs.Event, ecs.Entity, ecs.ID) { c.destroyed++ }),
	}
	return func() {
		for _, id := range ids {
			in.w.Unobserve(id)
		}
	}
}

// nameOf returns the name of the component stored as id on e (had: the
// names e's components had before), or "" if none.
func (in *Inspector) nameOf(e ecs.Entity, id ecs.ID, had map[string][]any) string {
	for _, name := range in.reg.EntityComponents(e) {
		if cid, ok := in.existingID(name); ok && cid == id {
			return name
		}
	}
	for name := range had {
		if cid, ok := in.existingID(name); ok && cid == id {
			return name
		}
	}
	return ""
}

// worldValues copies every component value of every entity.
func (in *Inspector) worldValues() map[ecs.Entity]map[string][]any {
	out := make(map[ecs.Entity]map[string][]any, in.w.Len())
	for e := range in.w.All() {
		m := map[string][]any{}
		for _, name := range in.reg.EntityComponents(e) {
			if v, err := in.reg.Values(e, name); err == nil {
				m[name] = cloneValues(v)
			}
		}
		out[e] = m
	}
	return out
}

// execEmit sends event l.Event with detail l.Detail to entity l.Ref and
// records what its handlers did.
func (in *Inspector) execEmit(l *JournalLine) reply {
	e, err := in.resolve(l.Ref)
	if err != nil {
		return refError(err)
	}
	var detail any
	if len(l.Detail) > 0 {
		if err := json.NewDecoder(bytes.NewReader(l.Detail)).Decode(&detail); err != nil {
			return errReply(http.StatusBadRequest, "inspect: the detail is not JSON: "+err.Error())
		}
	}
	raw := l.Detail
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	ev := sentEvent{Op: "emit", Ref: in.path(e), Entity: in.label(e), Event: l.Event, Detail: raw}
	listened := in.listened(e, l.Event, !l.NoBubbles)
	var before map[ecs.Entity]map[string][]any
	c := &capture{seen: map[ecs.Entity]map[ecs.ID]bool{}}
	stop := func() {}
	if listened {
		before = in.worldValues()
		stop = in.observe(c)
	}
	in.reg.Events().Emit(e, l.Event, detail, !l.NoBubbles)
	stop()
	// What the handlers reported goes to the caller, and back to the
	// run's own report.
	if err := in.reg.TakeErrors(); err != nil {
		ev.Errors = errorLines(err)
		in.reg.ReportError(err)
	}
	in.hub.publish("change", ev)
	in.record(in.emitEntry(&ev, c, before))
	return okReply(ev)
}

// listened reports whether a handler may hear event name sent to e (on
// e, or on an ancestor if it bubbles): if none, nothing is captured.
func (in *Inspector) listened(e ecs.Entity, name string, bubbles bool) bool {
	for x, ok := e, true; ok; x, ok = in.w.Parent(x) {
		if in.reg.Events().Listening(x, name) {
			return true
		}
		if !bubbles {
			break
		}
	}
	return false
}

// emitEntry makes the history entry of an event sent, from what its
// handlers did (c) and the World's values before (before).
func (in *Inspector) emitEntry(ev *sentEvent, c *capture, before map[ecs.Entity]map[string][]any) *entry {
	x := &entry{Op: "emit", Ref: ev.Ref, Entity: ev.Entity, Component: ev.Event, Summary: "send " + ev.Event + " to " + ev.Entity}
	made := map[ecs.Entity]bool{}
	var tops []*slot // entities made whose parent was not made too
	for _, m := range c.created {
		made[m] = true
	}
	for _, m := range c.created {
		if !in.w.Alive(m) {
			continue
		}
		if p, ok := in.w.Parent(m); ok && made[p] {
			continue
		}
		tops = append(tops, in.hist.slotOf(m))
	}
	var ts []touch
	for _, t := range c.order {
		if made[t.e] || !in.w.Alive(t.e) {
			continue
		}
		name := in.nameOf(t.e, t.id, before[t.e])
		if name == "" {
			continue // storage the Registry does not name (a tag of its own)
		}
		if c, ok := in.reg.Component(name); ok && c.ReadOnly() {
			continue // the world transform: its owner follows position, rotation, scale
		}
		tc := touch{s: in.hist.slotOf(t.e), name: name, before: before[t.e][name]}
		if v, err := in.reg.Values(t.e, name); err == nil && in.reg.Has(t.e, name) {
			tc.now = cloneValues(v)
		}
		ts = append(ts, tc)
	}
	if len(ts)+len(tops) > 0 {
		x.Summary += " (" + strconv.Itoa(len(ts)) + " components changed, " + strconv.Itoa(len(c.created)) + " entities made)"
	}
	snaps := make([]*entSnap, len(tops))
	places := make([]place, len(tops))
	destroyed := c.destroyed
	x.undo = func() *reply {
		if destroyed > 0 {
			rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: cannot undo %s: its handlers destroyed %d entities, which undo cannot bring back", x.Summary, destroyed))
			return &rep
		}
		for i := len(tops) - 1; i >= 0; i-- {
			sn, p, bad := in.unmake(tops[i], "undo "+x.Summary)
			if bad != nil {
				return bad
			}
			snaps[i], places[i] = sn, p
		}
		for i := len(ts) - 1; i >= 0; i-- {
			if bad := in.putBack(ts[i].s, ts[i].name, ts[i].before, nil, nil, nil, "undo "+x.Summary); bad != nil {
				return bad
			}
		}
		return nil
	}
	x.redo = func() *reply {
		for i := range tops {
			if _, bad := in.restore(places[i], snaps[i], "redo "+x.Summary); bad != nil {
				return bad
			}
		}
		for _, t := range ts {
			if bad := in.putBack(t.s, t.name, t.now, nil, nil, nil, "redo "+x.Summary); bad != nil {
				return bad
			}
		}
		return nil
	}
	return x
}

// existingID returns the ecs ID that stores component name, if that
// storage exists (it registers no instance of a component).
func (in *Inspector) existingID(name string) (ecs.ID, bool) {
	c, ok := in.reg.Component(name)
	if !ok {
		return 0, false
	}
	return c.ExistingID(name)
}
