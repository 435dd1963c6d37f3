package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// runOrder returns the names of the schedule's entries in run order.
func runOrder(t *testing.T, reg *registry.Registry) string {
	t.Helper()
	infos, err := reg.Schedule().Systems()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, si := range infos {
		names = append(names, si.Name)
	}
	return strings.Join(names, " ")
}

// TestSceneScheduleSettings: a scene's entries place systems and
// component ticks in the schedule (_phase, _before, _after, access,
// rates), in YAML maps, attribute strings and XML, beside the system's
// own properties; what they leave out keeps the Go definition's.
func TestSceneScheduleSettings(t *testing.T) {
	for _, c := range []struct{ file, src string }{
		{"s.yaml", `
scene:
  spin: {_phase: pre-update, _reads: position}
  lifetime: "_phase: pre-update; _before: spin; _every: 3"
  physics: {_interval: 0.5, maxSteps: 4}
entities: [{id: a, spin: "speed: 10"}]
`},
		{"s.json", `{"scene": {"spin": {"_phase": "pre-update", "_reads": "position"}, "lifetime": "_phase: pre-update; _before: spin; _every: 3",
			"physics": {"_interval": 0.5, "_exclusive": true, "maxSteps": 4}}, "entities": [{"id": "a", "components": {"spin": {"speed": 10}}}]}`},
		{"s.xml", `<scene spin="_phase: pre-update; _reads: position" lifetime="_phase: pre-update; _before: spin; _every: 3" physics="_interval: 0.5; maxSteps: 4"><entity id="a" spin="speed: 10"/></scene>`},
	} {
		reg := newTestRegistry(t)
		if _, err := LoadBytes(reg, c.file, []byte(c.src), Options{}); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		s := reg.Schedule()
		spin, _ := s.Settings("spin")
		if spin.Phase != registry.PhasePreUpdate || spin.Access == nil || strings.Join(spin.Access.Reads, ",") != "position" ||
			strings.Join(spin.Access.Writes, ",") != "rotation" {
			t.Errorf("%s: spin %+v %+v", c.file, spin, spin.Access)
		}
		life, _ := s.Settings("lifetime")
		if life.Phase != registry.PhasePreUpdate || strings.Join(life.Before, ",") != "spin" || life.Every != 3 {
			t.Errorf("%s: lifetime %+v", c.file, life)
		}
		ph, _ := s.Settings("physics")
		if ph.Interval != 0.5 || ph.Phase != registry.PhasePhysics || ph.Access == nil || ph.Access.Exclusive != true {
			t.Errorf("%s: physics %+v", c.file, ph)
		}
		if err := reg.Tick(0.01); err != nil {
			t.Fatal(err)
		}
		if _, max := s.Step(registry.PhasePhysics); max != 4 {
			t.Errorf("%s: physics's own setting maxSteps: 4 not applied: %d", c.file, max)
		}
		// Registered before lifetime, spin runs after it now.
		if got := runOrder(t, reg); !strings.Contains(got, "lifetime spin") {
			t.Errorf("%s: order %s", c.file, got)
		}
	}
}

// TestSceneScheduleErrors: bad schedule keys, a component entry with
// properties and an order the scene makes impossible are errors at the
// file, line and column of the entry; nothing is changed by a refused
// order.
func TestSceneScheduleErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"scene:\n  spin: {_phase: updat}\n", `s.yaml:2:18: scene: spin: _phase: unknown phase "updat"`},
		{"scene:\n  spin: {_phase: update, _evry: 2}\n", `s.yaml:2:26: scene: spin: _evry: unknown schedule key`},
		{"scene:\n  spin: \"_every: -1\"\n", `s.yaml:2:18: scene: spin: _every: "-1" is not a count`},
		{"scene:\n  spin: \"_phase: update; _interval: x\"\n", `s.yaml:2:37: scene: spin: _interval: "x" is not a number`},
		{"scene:\n  spin: {_exclusive: maybe}\n", `"maybe" is not true or false`},
		{"scene:\n  spin: \"_after: a; _after: b\"\n", `_after: given twice`},
		{"scene:\n  spin: {_after: physics, speed: 3}\n", `s.yaml:2:3: scene: spin is a component, not a system`},
		{"scene:\n  spni: {_after: physics}\n", `unknown system "spni"`},
		{"scene:\n  spin: {_before: lifetime}\n  lifetime: {_before: spin}\n",
			`s.yaml:2:10: scene: spin: registry: schedule: before/after ordering has a cycle: spin -> lifetime -> spin`},
		{"scene:\n  physics: {_phase: post-update, _after: transform}\n  transform: {_before: physics}\n",
			`s.yaml:2:13: scene: physics: registry: schedule: transform must run before physics`},
	} {
		reg := newTestRegistry(t)
		before := runOrder(t, reg)
		_, err := LoadBytes(reg, "s.yaml", []byte(c.src), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
		if after := runOrder(t, reg); after != before {
			t.Errorf("%q: the order changed: %s -> %s", c.src, before, after)
		}
	}
}

// TestSceneScheduleReload: a reload that changes the scene's schedule
// settings applies them (and restores the Go definition's for entries it
// drops); one that makes the order impossible is refused at the entry,
// changing nothing.
func TestSceneScheduleReload(t *testing.T) {
	reg := newTestRegistry(t)
	s, err := LoadBytes(reg, "s.yaml", []byte("scene:\n  spin: {_phase: pre-update}\nentities: [{id: a}]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	reload := func(src string) (*live.Diff, error) {
		doc, err := scenefile.Read("s.yaml", []byte(src), scenefile.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return s.Reload(doc)
	}
	d, err := reload("scene:\n  spin: {_phase: post-update}\n  lifetime: {_every: 2}\nentities: [{id: a}]\n")
	if err != nil || strings.Join(d.Schedule, ",") != "lifetime,spin" || !strings.Contains(d.String(), "~ scene: spin (schedule)") {
		t.Fatalf("reload: %v %+v", err, d)
	}
	if st, _ := reg.Schedule().Settings("spin"); st.Phase != registry.PhasePostUpdate {
		t.Errorf("spin after the reload: %+v", st)
	}
	if st, _ := reg.Schedule().Settings("lifetime"); st.Every != 2 {
		t.Errorf("lifetime after the reload: %+v", st)
	}
	_, err = reload("scene:\n  lifetime: {_every: 2, _before: spin}\n  spin: {_before: lifetime}\nentities: [{id: a}]\n")
	if err == nil || !strings.Contains(err.Error(), "s.yaml:2:") || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a cycle on reload: %v", err)
	}
	if st, _ := reg.Schedule().Settings("spin"); st.Phase != registry.PhasePostUpdate || len(st.Before) != 0 {
		t.Errorf("spin after a refused reload: %+v", st)
	}
	if d, err = reload("entities: [{id: a}]\n"); err != nil || len(d.Schedule) != 2 {
		t.Fatalf("dropping the settings: %v %+v", err, d)
	}
	if st, _ := reg.Schedule().Settings("spin"); st.Phase == registry.PhasePostUpdate {
		t.Errorf("spin back to its definition: %+v", st)
	}
}

// TestSceneScheduleFileErrors: LoadFile and Plan.CheckSchedule place an
// impossible order at the file (with its directory) and change nothing;
// a good plan's check leaves the schedule as it was too.
func TestSceneScheduleFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	good := filepath.Join(dir, "good.yaml")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(bad, []byte("scene:\n  lifetime: {_every: 2, _before: spawner}\n  spin: {_before: lifetime}\n  spawner: {_before: spin}\n"), 0o644))
	must(os.WriteFile(good, []byte("scene:\n  spin: {_phase: input}\n"), 0o644))
	reg := newTestRegistry(t)
	before := runOrder(t, reg)
	want := bad + ":2:14: scene: lifetime: registry: schedule: before/after ordering has a cycle:"
	if _, err := LoadFile(reg, bad, Options{}); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("LoadFile: %v\nwant %s", err, want)
	}
	for _, f := range []string{bad, good} {
		plan, err := CheckFile(reg, f, Options{})
		if err != nil {
			t.Fatalf("CheckFile %s: %v", f, err)
		}
		err = plan.CheckSchedule(reg)
		if (err != nil) != (f == bad) {
			t.Errorf("CheckSchedule %s: %v", f, err)
		}
		if after := runOrder(t, reg); after != before {
			t.Errorf("CheckSchedule %s changed the order: %s -> %s", f, before, after)
		}
	}
}
