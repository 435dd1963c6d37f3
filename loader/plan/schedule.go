package plan

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// A scene places registered systems and component ticks in the schedule
// with the keys below, in their entry of the scene's settings (`scene:`
// in YAML, attributes of <scene> in XML), beside the system's own
// properties:
//
//	scene:
//	  spin: {_phase: update, _after: physics, _writes: rotation, _every: 2}
//	  physics: "_interval: 0.05; gravity: 0 -9.8 0"
//
// An entry may name a component that ticks (spin above), which has no
// settings of its own: then it may hold only these keys. What a key gives
// replaces that of the Go definition; the others keep it.
var scheduleKeys = []string{"_phase", "_before", "_after", "_reads", "_writes", "_exclusive", "_every", "_interval"}

// ScheduleKeys returns the keys that place an entry of a scene's
// settings in the schedule, "_phase" to "_interval" (the editor schemas
// list them).
func ScheduleKeys() []string { return slices.Clone(scheduleKeys) }

// SchedulePlan is what a scene sets of one entry of the schedule (see
// [registry.Schedule.Configure]): Given lists the keys written, Settings
// holds their values (the other fields are unset).
type SchedulePlan struct {
	Src      *scenefile.ComponentSpec
	Name     string
	Given    []string
	Settings registry.Settings
	pos      scenefile.Pos // of the first key, for errors
}

// splitSchedule splits the schedule keys off a scene setting: it returns
// them (key, value, position) and the setting without them (sc itself if
// it has none).
func splitSchedule(sc *scenefile.ComponentSpec) ([]*scenefile.KV, *scenefile.ComponentSpec) {
	isKey := func(k string) bool { return strings.HasPrefix(strings.TrimSpace(k), "_") }
	switch sc.Kind {
	case scenefile.ValueMap:
		if !slices.ContainsFunc(sc.Map, func(kv *scenefile.KV) bool { return isKey(kv.Key) }) {
			return nil, sc
		}
		rest := *sc
		rest.Map = nil
		var keys []*scenefile.KV
		for _, kv := range sc.Map {
			if isKey(kv.Key) {
				keys = append(keys, kv)
			} else {
				rest.Map = append(rest.Map, kv)
			}
		}
		if len(rest.Map) == 0 {
			rest.Kind = scenefile.ValueEmpty
		}
		return keys, &rest
	case scenefile.ValueText:
		if sc.List != nil {
			return nil, sc // a list: the value of a single array property
		}
		var keys []*scenefile.KV
		var kept []string
		off := 0
		for _, ch := range strings.Split(sc.Text, ";") {
			k, v, ok := strings.Cut(ch, ":")
			if ok && isKey(k) {
				at := off + len(k) - len(strings.TrimLeft(k, " \t\n\r"))
				vat := off + len(k) + 1 + len(v) - len(strings.TrimLeft(v, " \t\n\r"))
				kv := &scenefile.KV{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v)}
				kv.SetPos(sc.TextAt(at), sc.TextAt(vat))
				keys = append(keys, kv)
			} else {
				kept = append(kept, ch)
			}
			off += len(ch) + 1
		}
		if len(keys) == 0 {
			return nil, sc
		}
		rest := *sc
		rest.Text = strings.Join(kept, ";")
		rest.Exact = false
		if strings.TrimSpace(strings.ReplaceAll(rest.Text, ";", "")) == "" {
			rest.Kind, rest.Text = scenefile.ValueEmpty, ""
		}
		return keys, &rest
	}
	return nil, sc
}

// nameList splits a list of names written with spaces or commas.
var nameList = regexp.MustCompile(`[\s,]+`)

func names(v string) []string {
	var out []string
	for _, s := range nameList.Split(strings.TrimSpace(v), -1) {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// scheduleSettings parses the schedule keys of the scene setting of
// name, reporting bad ones to errs.
func scheduleSettings(sc *scenefile.ComponentSpec, keys []*scenefile.KV, errs *errorSink) (*SchedulePlan, bool) {
	sp := &SchedulePlan{Src: sc, Name: sc.Name, pos: keys[0].Pos()}
	set := &sp.Settings
	ok := true
	bad := func(kv *scenefile.KV, format string, args ...any) {
		errs.add(kv.ValuePos(), "scene: %s: %s: %s", sc.Name, kv.Key, fmt.Sprintf(format, args...))
		ok = false
	}
	access := func() *registry.Access {
		if set.Access == nil {
			set.Access = &registry.Access{}
		}
		return set.Access
	}
	for _, kv := range keys {
		if slices.Contains(sp.Given, kv.Key) {
			errs.add(kv.Pos(), "scene: %s: %s: given twice", sc.Name, kv.Key)
			ok = false
			continue
		}
		sp.Given = append(sp.Given, kv.Key)
		v := strings.TrimSpace(kv.Value)
		if kv.List != nil && !scheduleList(sc, kv, errs) {
			ok = false
			continue
		}
		switch kv.Key {
		case "_phase":
			if !slices.Contains(registry.PhaseNames(), v) {
				bad(kv, "unknown phase %q (the phases are %s)%s", v, strings.Join(registry.PhaseNames(), ", "), suggest(v, registry.PhaseNames()))
			}
			set.Phase = v
		case "_before":
			set.Before = names(v)
		case "_after":
			set.After = names(v)
		case "_reads":
			access().Reads = names(v)
		case "_writes":
			access().Writes = names(v)
		case "_exclusive":
			b, err := strconv.ParseBool(v)
			if err != nil {
				bad(kv, "%q is not true or false", v)
			}
			access().Exclusive = b
		case "_every":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				bad(kv, "%q is not a count of runs, 0 or more", v)
			}
			set.Every = n
		case "_interval":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 0) || x > registry.MaxPeriod {
				bad(kv, "%q is not a number of seconds from 0 to %v (a day)", v, registry.MaxPeriod)
			}
			set.Interval = x
		default:
			errs.add(kv.Pos(), "scene: %s: %s: unknown schedule key (the keys are %s)%s", sc.Name, kv.Key, strings.Join(scheduleKeys, ", "), suggest(kv.Key, scheduleKeys))
			ok = false
		}
	}
	return sp, ok
}

// scheduleList reports a schedule key written as a list where no list is
// written (the keys but those that list names: _before, _after, _reads,
// _writes) or with an item that is not one name, and returns false if
// there was any.
func scheduleList(sc *scenefile.ComponentSpec, kv *scenefile.KV, errs *errorSink) bool {
	switch kv.Key {
	case "_before", "_after", "_reads", "_writes":
	default:
		errs.add(kv.ValuePos(), "scene: %s: %s: a list is written only for the keys that list names (_before, _after, _reads, _writes)", sc.Name, kv.Key)
		return false
	}
	ok := true
	for _, it := range kv.List.Items {
		if len(names(it.Text)) != 1 || strings.TrimSpace(it.Text) != it.Text {
			at := it.Pos
			if !at.IsValid() {
				at = kv.ValuePos()
			}
			errs.add(at, "scene: %s: %s: list item %q is not one name", sc.Name, kv.Key, it.Text)
			ok = false
		}
	}
	return ok
}

// compileSchedule compiles a scene setting: its schedule keys into
// c.plan.Schedule, and returns the setting without them (nil if nothing
// of it is left for a system: an entry of a component tick).
func (c *compiler) compileSchedule(sc *scenefile.ComponentSpec) *scenefile.ComponentSpec {
	keys, rest := splitSchedule(sc)
	if len(keys) == 0 {
		return sc
	}
	sp, ok := scheduleSettings(sc, keys, c.errs)
	_, isSys := c.reg.System(sc.Name)
	known := slices.Contains(c.reg.Schedule().Names(), sc.Name)
	switch {
	case !known && !isSys:
		return sc // an unknown system: reported with the others
	case !isSys && rest.Kind != scenefile.ValueEmpty:
		c.errs.add(sc.Pos(), "scene: %s is a component, not a system: its entry takes only the schedule keys (%s)", sc.Name, strings.Join(scheduleKeys, ", "))
		return nil
	}
	if ok && c.checkSchedule(sp, keys) {
		c.plan.Schedule = append(c.plan.Schedule, sp)
	}
	if !isSys {
		return nil
	}
	return rest
}

// checkSchedule asks the registry whether sp's settings, written over
// those in force, may be configured: a system that must run alone
// (registry.Access.KeepExclusive: the behaviour system emits events at
// once) refuses `_exclusive: false`, at its value.
func (c *compiler) checkSchedule(sp *SchedulePlan, keys []*scenefile.KV) bool {
	base, _ := c.reg.Schedule().Settings(sp.Name)
	set := sp.merged(base)
	err := c.reg.Schedule().Check(sp.Name, &set)
	if err == nil {
		return true
	}
	at := sp.pos
	for _, kv := range keys {
		if kv.Key == "_exclusive" {
			at = kv.ValuePos()
		}
	}
	if errors.Is(err, registry.ErrMustBeExclusive) {
		c.errs.add(at, "scene: %s: _exclusive: false: %s must run alone: it emits events or changes the World at once, which the parallel rules forbid", sp.Name, sp.Name)
	} else {
		c.errs.add(at, "scene: %s: %v", sp.Name, err)
	}
	return false
}

// merged returns base with the keys sp gives replaced.
func (sp *SchedulePlan) merged(base registry.Settings) registry.Settings {
	for _, k := range sp.Given {
		switch k {
		case "_phase":
			base.Phase = sp.Settings.Phase
		case "_before":
			base.Before = sp.Settings.Before
		case "_after":
			base.After = sp.Settings.After
		case "_every":
			base.Every = sp.Settings.Every
		case "_interval":
			base.Interval = sp.Settings.Interval
		case "_reads", "_writes", "_exclusive":
			a := registry.Access{}
			if base.Access != nil {
				a = *base.Access
			}
			switch k {
			case "_reads":
				a.Reads = sp.Settings.Access.Reads
			case "_writes":
				a.Writes = sp.Settings.Access.Writes
			default:
				a.Exclusive = sp.Settings.Access.Exclusive
			}
			base.Access = &a
		}
	}
	return base
}

// ApplySchedule moves reg's schedule from the settings of old to those
// of plans (old nil: the scene is built; package live calls it on build
// and on reload): an entry old set and plans do not goes back to its Go
// definition. If the schedule then has no possible order (a cycle),
// everything goes back as it was and the error points at the scene's
// entry of one of the systems it names.
func ApplySchedule(reg *registry.Registry, old, plans []*SchedulePlan) error {
	return trySchedule(reg, old, plans, true)
}

// CheckSchedule reports the error building p into reg would find in the
// schedule (an order p's schedule settings make impossible: a cycle, a
// constraint the phases contradict), changing nothing. Positions name
// files as p's do. As with building, call it on the goroutine that ticks
// reg.
func (p *Plan) CheckSchedule(reg *registry.Registry) error {
	return trySchedule(reg, nil, p.Schedule, false)
}

// trySchedule is ApplySchedule, which with keep false puts everything
// back as it was in any case.
func trySchedule(reg *registry.Registry, old, plans []*SchedulePlan, keep bool) error {
	s := reg.Schedule()
	set := func(ps []*SchedulePlan, others []*SchedulePlan) {
		for _, sp := range others {
			if !slices.ContainsFunc(ps, func(x *SchedulePlan) bool { return x.Name == sp.Name }) {
				_ = s.Configure(sp.Name, nil)
			}
		}
		for _, sp := range ps {
			_ = s.Configure(sp.Name, nil)
			base, _ := s.Settings(sp.Name)
			if err := s.Configure(sp.Name, ptr(sp.merged(base))); err != nil {
				// Checked when compiled; the registry may know better.
				_ = s.Configure(sp.Name, nil)
			}
		}
	}
	if len(old) == 0 && len(plans) == 0 {
		return nil
	}
	before := s.Err()
	set(plans, old)
	err := s.Err()
	if !keep || err != nil && before == nil {
		set(old, plans)
	}
	if err == nil || before != nil {
		return nil // (an error of the program's own: Tick reports it)
	}
	if len(plans) == 0 {
		return scenefile.ErrorList{{Msg: fmt.Sprintf("scene: %v", err)}}
	}
	at := plans[0]
	for _, sp := range plans {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(sp.Name) + `\b`).MatchString(err.Error()) {
			at = sp
			break
		}
	}
	return scenefile.ErrorList{{Pos: at.pos, Msg: fmt.Sprintf("scene: %s: %v", at.Name, err)}}
}

func ptr[T any](v T) *T { return &v }
