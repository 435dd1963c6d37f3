package loader

import (
	"bytes"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/internal/scenegen"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// fuzzLimits keep every fuzz input cheap (as the readers' fuzz tests
// do): the pipeline must refuse, not crash or hang.
var fuzzLimits = scenefile.Limits{MaxBytes: 1 << 16, MaxDepth: 32, MaxEntities: 2000, MaxErrors: 50}

// FuzzLoad runs the whole pipeline on fuzzed YAML and XML: read, compile
// (also on documents that were read with errors, as loads do to report
// every problem), build into a fresh World and, when that worked, export
// and load the export again. Nothing may panic; a failed load must leave
// the World empty; an export must load back.
func FuzzLoad(f *testing.F) {
	for _, ext := range []string{"yaml", "xml"} {
		f.Add(ext == "xml", scenegen.Scene(ext, 5))
	}
	f.Add(false, []byte("mixins:\n  a: {mixin: b}\n  b: {mixin: a}\nentities:\n  - mixin: a\n    position: 1 2\n"))
	f.Add(false, []byte("components:\n  hp: {type: int, min: 0}\nentities:\n  - id: x\n    hp: -1\n  - id: x\n    helth: 3\n"))
	f.Add(true, []byte(`<scene><entity id="a" position="1 2 3 4"/><entity id="a"/></scene>`))
	f.Add(false, genFlowScene(5))
	for _, ext := range []string{"yaml", "xml"} {
		for _, src := range scenegen.PrefabScenes(ext) {
			f.Add(ext == "xml", []byte(src))
		}
	}
	f.Add(false, []byte("components:\n  note: {text: {type: string}, n: {type: int}}\nentities:\n  - {note: {text: \" a; b \"}, label: \" \"}\n"))
	f.Add(true, []byte(`<scene><components><component name="note"><property name="text" type="string"/></component></components><entity note.text=" a; b "/></scene>`))
	// Several bad properties in one value: each is reported.
	f.Add(false, []byte("entities:\n  - spin: \"speed: x; axis: 1 y 0; spd: 2; fast\"\n  - spin: {speed: y, axs: 1}\nmixins:\n  m: {spin: \"speed: ; axis: 9 9 9 9\"}\n"))
	f.Add(true, []byte(`<scene><entity spin="speed: x&#59; axis: 1 y 0; :3"/><mixin id="m" spin="speed: ; url(a"/></scene>`))
	// Schedule keys in scene entries: good, bad, a cycle, beside a
	// system's own properties.
	f.Add(false, []byte("scene:\n  spin: {_phase: pre-update, _before: lifetime, _writes: rotation}\n  lifetime: \"_after: spin; _every: x; ;_: \"\n  physics: \"_interval: 0.1; maxSteps: 3; _exclusive: no\"\n"))
	f.Add(true, []byte(`<scene spin="_before: lifetime&#59; _phase: update" lifetime="_before: spin" physics=";_after: ;step: 0.02"/>`))
	f.Fuzz(func(t *testing.T, isXML bool, data []byte) {
		name := "f.yaml"
		if isXML {
			name = "f.xml"
		}
		reg := registry.New(ecs.NewWorld())
		if _, err := components.Register(reg); err != nil {
			t.Fatal(err)
		}
		_, err := LoadBytes(reg, name, data, Options{Limits: fuzzLimits})
		if err != nil {
			if n := reg.World().Len(); n != 0 {
				t.Fatalf("failed load left %d entities: %v", n, err)
			}
			return
		}
		var out bytes.Buffer
		if err := scenefile.WriteYAML(&out, export.Export(reg, export.Options{})); err != nil {
			t.Fatal(err)
		}
		reg2 := registry.New(ecs.NewWorld())
		if _, err := components.Register(reg2); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadBytes(reg2, "export.yaml", out.Bytes(), Options{}); err != nil {
			t.Fatalf("export does not load back: %v\n%s", err, out.Bytes())
		}
		if reg2.World().Len() != reg.World().Len() {
			t.Fatalf("export loads %d entities, want %d", reg2.World().Len(), reg.World().Len())
		}
	})
}
