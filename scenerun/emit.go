package scenerun

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/selector"
)

// Scripted events: -emit 'SELECTOR:EVENT@TICK' (repeatable) emits EVENT
// on every entity SELECTOR matches once TICK ticks have run (0: right
// after loading), as the inspector's POST /api/entities/REF/events/NAME
// does: bubbling, with the detail given after '=' as JSON.

// emitSpec is one -emit.
type emitSpec struct {
	text     string // as given, for messages
	selector string
	event    string
	tick     int
	detail   any
}

// emitFlag collects the -emit flags.
type emitFlag struct{ specs *[]emitSpec }

// tickSuffix matches what follows the '@' of an -emit: the tick, then
// optionally '=' and the detail.
var tickSuffix = regexp.MustCompile(`^([0-9]+)(=(.*))?$`)

const emitForm = `want SELECTOR:EVENT@TICK, such as '#door:open@30' (optionally followed by =JSON, the event's detail: '#rock:hit@60={"damage": 5}')`

func (f emitFlag) String() string {
	if f.specs == nil {
		return ""
	}
	var parts []string
	for _, s := range *f.specs {
		parts = append(parts, s.text)
	}
	return strings.Join(parts, " ")
}

// Set parses one -emit.
func (f emitFlag) Set(s string) error {
	spec, err := parseEmit(s)
	if err != nil {
		return err
	}
	*f.specs = append(*f.specs, spec)
	return nil
}

// parseEmit parses SELECTOR:EVENT@TICK[=JSON]. The tick is taken at the
// first '@' followed by digits and then the end or '=' (a selector may
// hold '@' inside quotes); the event at the last ':' before it.
func parseEmit(s string) (emitSpec, error) {
	spec := emitSpec{text: s}
	at := -1
	var m []string
	for i := strings.IndexByte(s, '@'); i >= 0; {
		if m = tickSuffix.FindStringSubmatch(s[i+1:]); m != nil {
			at = i
			break
		}
		j := strings.IndexByte(s[i+1:], '@')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if at < 0 {
		return spec, errors.New("no @TICK: " + emitForm)
	}
	head := s[:at]
	colon := strings.LastIndexByte(head, ':')
	if colon < 0 {
		return spec, errors.New("no :EVENT before @" + m[1] + ": " + emitForm)
	}
	spec.selector, spec.event = strings.TrimSpace(head[:colon]), head[colon+1:]
	if spec.selector == "" {
		return spec, errors.New("no SELECTOR before :" + spec.event + ": " + emitForm)
	}
	if !validEventName(spec.event) {
		return spec, fmt.Errorf("event %q: want a name of letters, digits, '-', '_' and '.'", spec.event)
	}
	if _, err := selector.Parse(spec.selector); err != nil {
		return spec, fmt.Errorf("selector %q: %v", spec.selector, err)
	}
	n, err := strconv.ParseInt(m[1], 10, 32)
	if err != nil {
		return spec, fmt.Errorf("tick %s: out of range", m[1])
	}
	spec.tick = int(n)
	if m[2] != "" {
		if err := json.Unmarshal([]byte(m[3]), &spec.detail); err != nil {
			return spec, fmt.Errorf("detail %s: not JSON: %v", m[3], err)
		}
	}
	return spec, nil
}

// validEventName reports whether name is an event name on's clauses
// accept.
func validEventName(name string) bool {
	if name == "" {
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

// emitVar defines the repeatable -emit flag.
func emitVar(fs *flag.FlagSet, specs *[]emitSpec) {
	fs.Var(emitFlag{specs}, "emit", "emit an event, `SELECTOR:EVENT@TICK`, on the entities SELECTOR matches once TICK ticks have run (0: after loading); =JSON after TICK gives the detail; repeatable")
}

// emitter emits the scripted events of a run, in tick order, in the
// order given within a tick.
type emitter struct {
	specs  []emitSpec
	next   int
	stderr io.Writer
}

// newEmitter sorts specs by tick (stably) and checks their selectors
// against the loaded scene (a component they name must exist): a usage
// error otherwise.
func newEmitter(rt *runtime, specs []emitSpec, stderr io.Writer) (*emitter, error) {
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].tick < specs[j].tick })
	for _, s := range specs {
		if _, err := rt.reg.QueryAll(s.selector); err != nil {
			return nil, usagef("-emit %s: %v", s.text, err)
		}
	}
	return &emitter{specs: specs, stderr: stderr}, nil
}

// checkTicks refuses emits that a run of n ticks never reaches.
func (em *emitter) checkTicks(n int, flagName string) error {
	if len(em.specs) > 0 && em.specs[len(em.specs)-1].tick > n {
		s := em.specs[len(em.specs)-1]
		return usagef("-emit %s: tick %d is after the last (%s %d)", s.text, s.tick, flagName, n)
	}
	return nil
}

// due emits the events of tick ticks (ticks that have run).
func (em *emitter) due(rt *runtime, ticks int) {
	for em != nil && em.next < len(em.specs) && em.specs[em.next].tick <= ticks {
		s := em.specs[em.next]
		em.next++
		es, err := rt.reg.QueryAll(s.selector)
		if err != nil || len(es) == 0 {
			fmt.Fprintf(em.stderr, "tick %d: -emit %s: no entity matches %s\n", ticks, s.text, s.selector)
			continue
		}
		for _, e := range es {
			rt.reg.Events().Emit(e, s.event, s.detail, true)
		}
	}
}
