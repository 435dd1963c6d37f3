package editorschema

import (
	"slices"
	"strings"

	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/registry"
)

// A scene's settings (scene: in YAML, the attributes of <scene> in XML)
// take, beside each system's properties, the keys that place an entry in
// the schedule (plan.ScheduleKeys: _phase, _before, ...), and entries
// for the component ticks of the schedule, which take only those keys.
// docs/schedule.md describes them.

// scheduleTicks returns the names of the schedule's entries that are not
// systems (components that tick), sorted, each once.
func scheduleTicks(reg *registry.Registry) []string {
	var out []string
	for _, n := range reg.Schedule().Names() {
		if _, isSys := reg.System(n); !isSys && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// tickDoc documents the scene entry of the component tick name.
func tickDoc(name string) string {
	return "A component " + name + " in the schedule: " + strings.Join(plan.ScheduleKeys(), ", ") + " (docs/schedule.md)."
}

// sceneEntryPattern returns the pattern, in dialect d, of the attribute
// strings of a scene entry: the properties of s (none for nil or a tag)
// and the schedule keys, as "name: value" chunks separated by ";".
func sceneEntryPattern(s *registry.Schema, d patternDialect) string {
	var names []string
	if s != nil && !s.IsTag() && !s.Single() {
		for i := range s.Props {
			names = append(names, spellings(s.Props[i].Name, d))
		}
	}
	return chunksPattern(append(names, plan.ScheduleKeys()...), d)
}

// scheduleProps returns the JSON Schemas of the schedule keys' values in
// a mapping.
func scheduleProps() jsonObj {
	names := func(desc string) jsonObj {
		return jsonObj{"description": desc + ": names separated by spaces or commas, or a list of names.", "type": []any{"string", "null", "array"},
			"items": jsonObj{"type": "string", "pattern": `^[^,\s]+$`}}
	}
	return jsonObj{
		"_phase":     jsonObj{"description": "The phase the entry runs in.", "enum": toAny(registry.PhaseNames())},
		"_before":    names("Entries this one runs before"),
		"_after":     names("Entries this one runs after"),
		"_reads":     names("The components the entry reads (its access)"),
		"_writes":    names("The components the entry writes (its access)"),
		"_exclusive": jsonObj{"description": "Whether the entry runs alone.", "type": []any{"boolean", "string"}, "pattern": `^(?:[01tTfF]|true|TRUE|True|false|FALSE|False)$`},
		"_every":     jsonObj{"description": "Run once every N runs of its phase (0 or 1: every run).", "type": []any{"integer", "string"}, "minimum": 0, "pattern": `^\s*[0-9]+\s*$`},
		"_interval":  jsonObj{"description": "Run at most once every this many seconds of scene time (at most a day).", "type": []any{"number", "string"}, "minimum": 0, "maximum": registry.MaxPeriod, "pattern": `^\s*` + numberRE + `\s*$`},
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// scheduleEntry is the JSON Schema of a scene entry that takes only the
// schedule keys (a component tick, a system without properties).
func scheduleEntry(doc string) jsonObj {
	return jsonObj{
		"description":          doc,
		"type":                 []any{"string", "null", "object"},
		"pattern":              sceneEntryPattern(nil, jsonDialect),
		"patternErrorMessage":  `Expected "key: value" pairs separated by ";", the keys being ` + strings.Join(plan.ScheduleKeys(), ", ") + ".",
		"properties":           scheduleProps(),
		"additionalProperties": false,
	}
}

// systemEntry is the JSON Schema of the scene entry of system s: its
// properties and the schedule keys.
func systemEntry(s *registry.System) jsonObj {
	doc := systemDoc(s)
	switch {
	case s.Schema.IsTag():
		return scheduleEntry(doc)
	case s.Schema.Single():
		// Its value, or the schedule keys alone.
		return jsonObj{"description": doc, "anyOf": []any{schemaValue(s.Schema, doc), scheduleEntry(doc)}}
	}
	v := schemaValue(s.Schema, doc)
	props := v["properties"].(jsonObj)
	for k, p := range scheduleProps() {
		props[k] = p
	}
	v["pattern"] = sceneEntryPattern(s.Schema, jsonDialect)
	v["patternErrorMessage"] = `Expected "property: value" pairs separated by ";", the properties being ` +
		strings.Join(s.Schema.Names(), ", ") + " (camelCase or hyphen-case) or the schedule keys " + strings.Join(plan.ScheduleKeys(), ", ") + "."
	return v
}

// scheduleAttrs writes the attributes of <scene>: each system's, with the
// schedule keys, and each component tick's.
func (x *xsdWriter) scheduleAttrs(reg *registry.Registry) {
	for _, s := range sortedSystems(reg) {
		switch {
		case s.Schema.Single() && !s.Schema.IsTag():
			x.attr(s.Name, systemDoc(s), nil) // its value or the keys: any text
		default:
			x.patternAttr(s.Name, systemDoc(s), sceneEntryPattern(s.Schema, xsdDialect))
		}
	}
	for _, n := range scheduleTicks(reg) {
		x.patternAttr(n, tickDoc(n), sceneEntryPattern(nil, xsdDialect))
	}
}
