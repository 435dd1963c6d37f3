package loader

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/export"
)

// fleetScene has ships docked at stations of factions.
const fleetScene = `components:
  docked: {type: entity}
  faction: {type: string}
  ship: {}
  station: {}
entities:
  - id: s1
    station:
    faction: red
  - id: s2
    station:
    faction: blue
  - id: a
    ship:
    faction: red
    docked: "#s1"
  - id: b
    ship:
    faction: red
    docked: "#s2"
  - id: c
    ship:
    faction: blue
    docked: "#s2"
  - id: d
    ship:
    faction: blue
`

// TestSelectorsFollowLoadedReferences: the selector language's relations
// and variables run on a loaded scene's references, through the
// registry's index (the selector package's own tests use a fake Source
// and a brute-force oracle).
func TestSelectorsFollowLoadedReferences(t *testing.T) {
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "f.yaml", []byte(fleetScene), Options{}); err != nil {
		t.Fatal(err)
	}
	for sel, want := range map[string]string{
		`[docked=#s2]`: "b c",
		`[ship]:to(docked, [station][faction=blue])`:  "b c",
		`[station]:from(docked, [faction=red])`:       "s1 s2",
		`[ship][faction=$f]:to(docked, [faction=$f])`: "a c",
		`[ship]:not(:to(docked, *))`:                  "d",
		`[station]:not(:from(docked, *))`:             "",
	} {
		es, err := reg.QueryAll(sel)
		if err != nil {
			t.Errorf("%s: %v", sel, err)
			continue
		}
		if got := strings.Join(export.EntityPaths(reg, es), " "); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	s2, _ := reg.EntityByID("s2")
	if err := reg.World().Destroy(s2); err != nil {
		t.Fatal(err)
	}
	if es, err := reg.QueryAll(`[ship]:not(:to(docked, *))`); err != nil || len(es) != 3 {
		t.Errorf("ships docked nowhere once s2 is gone (its references cleared): %d, %v", len(es), err)
	}
}
