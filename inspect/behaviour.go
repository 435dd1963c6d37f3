package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/editor"
	"github.com/scenecs/scenecs/registry"
)

// Behaviour in the inspector: events sent to an entity (POST
// /api/entities/REF/events/NAME), the event log ("entity-event" events on
// the stream, rate-limited per event name), and an entity's running
// behaviour in GET /api/entities/REF (animations, timers, handlers,
// bindings), when Options.Behaviour is given.

// Rate of the event log, per event name: a burst of logBurst events,
// then logRate per second; the others are counted and reported with the
// next event of the name that is logged.
const (
	logRate  = 20.0
	logBurst = 40.0
	// logNames bounds the names the log keeps a budget for; events of
	// names beyond share one.
	logNames = 256
	// maxLogDetail bounds an event's detail in the log, as JSON bytes.
	maxLogDetail = 512
)

// logBucket is the budget of one event name.
type logBucket struct {
	tokens  float64
	last    int64 // eventLog.clock when tokens were last refilled
	skipped int
}

// eventLog is the state of the event log, on the simulation goroutine.
type eventLog struct {
	buckets map[string]*logBucket
	remove  func() // removes the Registry tap
	// A spawning scene emits tens of events a tick, nearly all over
	// budget; while a page was open, looking each one's budget up and
	// reading the clock for it cost the simulation about 10 % of its
	// ticks. So the bucket of the last name is kept at hand, and the
	// clock (nanoseconds since epoch) is read once between two Drains
	// (stale tells it is to be read again), and every logClockEvery
	// events meanwhile.
	name   string
	bucket *logBucket // of name
	epoch  time.Time
	now    int64
	stale  bool
	events int // events since now was read
}

// logClockEvery bounds the events the log takes between two reads of the
// clock, for a loop that does not call Drain between ticks.
const logClockEvery = 1024

// entityEvent is the data of an "entity-event" event: an event emitted
// on an entity.
type entityEvent struct {
	// Name is the event's name; Entity the entity it was emitted on
	// (its label, "#id" or its path), Ref its reference.
	Name   string `json:"name"`
	Entity string `json:"entity"`
	Ref    string `json:"ref"`
	// Time is the scene time in seconds.
	Time float64 `json:"time"`
	// Detail is the event's detail as JSON (null for none); a detail
	// that cannot be written as JSON, or longer than 512 bytes, is a
	// string describing it.
	Detail json.RawMessage `json:"detail"`
	// Skipped counts the events of the same name the log left out
	// since the last one it showed (beyond its rate).
	Skipped int `json:"skipped,omitempty"`
}

// tapEvents makes the Inspector log the Registry's events.
func (in *Inspector) tapEvents() {
	in.log.buckets = map[string]*logBucket{}
	in.log.name, in.log.bucket = "", nil
	in.log.remove = in.reg.Events().AddTap(registry.EventTap{
		Active: func() bool { return in.hub.open.Load() > 0 }, // only while a stream is open
		Event:  in.logEvent,
	})
}

// logEvent is the Registry tap, active while a stream is open: it
// publishes e's event, within the event name's rate. It runs on the
// simulation goroutine, inside Events.Emit.
func (in *Inspector) logEvent(e ecs.Entity, name string, detail any) {
	now := in.log.clock()
	b := in.log.budget(name, now)
	if now != b.last {
		b.tokens = min(logBurst, b.tokens+float64(now-b.last)*(logRate/1e9))
		b.last = now
	}
	if b.tokens < 1 {
		b.skipped++
		return
	}
	b.tokens--
	ref := in.path(e) // its path, numbering e's siblings: made once
	label := ref
	if id := in.reg.EntityID(e); id != "" {
		label = "#" + id
	}
	ev := entityEvent{Name: name, Entity: label, Ref: ref, Time: in.reg.Time(), Detail: detailJSON(detail), Skipped: b.skipped}
	b.skipped = 0
	in.hub.publishEvent(name, ev)
}

// budget is the bucket of an event name, made (full, at now) on its
// first event.
func (l *eventLog) budget(name string, now int64) *logBucket {
	if l.bucket != nil && name == l.name {
		return l.bucket
	}
	b := l.buckets[name]
	if b == nil {
		key := name
		if len(l.buckets) >= logNames {
			key = "" // the shared budget of the names beyond
			b = l.buckets[key]
		}
		if b == nil {
			b = &logBucket{tokens: logBurst, last: now}
			l.buckets[key] = b
		}
	}
	l.name, l.bucket = name, b
	return b
}

// clock is the time of the event being logged, in nanoseconds since the
// log's first event, as of the last Drain (or the last logClockEvery
// events).
func (l *eventLog) clock() int64 {
	l.events++
	if l.stale || l.events >= logClockEvery || l.epoch.IsZero() {
		if l.epoch.IsZero() {
			l.epoch = time.Now()
		}
		l.now, l.stale, l.events = int64(time.Since(l.epoch)), false, 0
	}
	return l.now
}

// detailJSON writes an event's detail for the log.
func detailJSON(detail any) json.RawMessage {
	b, err := json.Marshal(detail)
	if err != nil {
		b, _ = json.Marshal(fmt.Sprintf("%T (not JSON: %v)", detail, err))
	} else if len(b) > maxLogDetail {
		b, _ = json.Marshal(fmt.Sprintf("%T of %d bytes as JSON (too long to log)", detail, len(b)))
	}
	return b
}

// untapEvents removes the Registry tap (Drain calls it once the
// Inspector is closed: on the simulation goroutine).
func (in *Inspector) untapEvents() {
	if in.log.remove != nil {
		in.log.remove()
		in.log.remove = nil
	}
}

// validEvent reports whether name is an event name a scene's on can
// name: letters, digits, '-', '_' and '.'.
func validEvent(name string) bool {
	if name == "" || len(name) > 200 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// postEvent: POST /api/entities/REF/events/NAME with the detail as a
// JSON body (empty: no detail); ?bubbles=0 keeps the event from
// bubbling to the entity's ancestors.
func (in *Inspector) postEvent(w http.ResponseWriter, r *http.Request, ref, name string) {
	if !validEvent(name) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: event name %q: want letters, digits, '-', '_' and '.'", name))
		return
	}
	bubbles := true
	if v := r.URL.Query().Get("bubbles"); v != "" {
		b, ok := boolParam(w, r.URL.Query(), "bubbles")
		if !ok {
			return
		}
		bubbles = b
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	var detail any
	raw := json.RawMessage("null")
	if len(bytes.TrimSpace(body)) > 0 {
		if !utf8.Valid(body) {
			writeError(w, http.StatusBadRequest, "inspect: the detail is not valid UTF-8")
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&detail); err != nil || dec.More() {
			if err == nil {
				err = fmt.Errorf("more than one JSON value")
			}
			off := int(dec.InputOffset())
			writeJSON(w, http.StatusBadRequest, errorBody{Error: "inspect: the detail is not JSON: " + err.Error(), Offset: &off})
			return
		}
		var c bytes.Buffer
		if err := json.Compact(&c, body); err == nil {
			raw = c.Bytes() // one line, for the journal
		} else {
			raw = bytes.TrimSpace(body)
		}
	}
	in.edit(w, r, &editor.Emit{Ref: ref, Event: name, Detail: raw, NoBubbles: !bubbles})
}

// Behaviours tells an entity's running behaviour (animations, timers,
// handlers, bindings) for GET /api/entities/REF; the built-ins of package
// components are one (components.Builtins, through the
// components/behaviour Builtins it embeds).
type Behaviours interface {
	// BehaviourOf returns e's running behaviour as a value encoding/json
	// writes, or nil if e runs none.
	BehaviourOf(e ecs.Entity) any
}

// behaviourOf returns e's running behaviour, or nil if it has none (or
// the Inspector was not given Options.Behaviour).
func (in *Inspector) behaviourOf(e ecs.Entity) any {
	if in.opt.Behaviour == nil {
		return nil
	}
	return in.opt.Behaviour.BehaviourOf(e)
}

// splitEventPath cuts REF/events/NAME (the escaped path after
// /api/entities/) into the reference and the event name; ok is false if
// rest has no /events/NAME.
func splitEventPath(rest string) (ref, name string, ok bool) {
	i := strings.LastIndex(rest, "/events/")
	if i <= 0 {
		return "", "", false
	}
	return rest[:i], rest[i+len("/events/"):], true
}
