package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// prefabDumpScene has a prefab with parts, a nested prefab, instances
// with and without ids, and an instance changing one of its parts.
const prefabDumpScene = `prefabs:
  gun-pf:
    class: gun
    scale: 1 2 1
  ship-pf:
    class: ship
    color: "#ff0000"
    children:
      - id: gun-left
        prefab: gun-pf
        position: -1 0 0
      - id: gun-right
        prefab: gun-pf
        position: 1 0 0
entities:
  - id: f1
    prefab: ship-pf
    position: 5 0 0
  - id: f2
    prefab: ship-pf
    parts:
      gun-left: {scale: 3 3 3}
  - prefab: ship-pf
`

// TestDumpFlat: "dump" writes a scene's instances as prefab: plus their
// differences, with the prefabs; "dump -flat" writes every entity whole
// and no prefab. Both, in every format, load back to the same World.
func TestDumpFlat(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "ships.yaml")
	if err := os.WriteFile(src, []byte(prefabDumpScene), 0o644); err != nil {
		t.Fatal(err)
	}
	want := runBin(t, "dump", "-format", "json", "-flat", src).Expect(t, 0).Stdout
	if strings.Contains(want, "prefab") {
		t.Fatalf("the flat dump names prefabs:\n%s", want)
	}
	for _, f := range []string{"yaml", "xml", "json"} {
		for _, flat := range []bool{false, true} {
			args := []string{"dump", "-format", f}
			if flat {
				args = append(args, "-flat")
			}
			text := runBin(t, append(args, src)...).Expect(t, 0).Stdout
			// The structured dump names the prefab on each instance and
			// defines it; the flat one never names it.
			n := strings.Count(text, "ship-pf")
			if flat && n != 0 || !flat && n < 4 {
				t.Errorf("%s flat=%v: %d mentions of the prefab ship-pf:\n%s", f, flat, n, text)
			}
			back := filepath.Join(dir, "back."+f)
			if err := os.WriteFile(back, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := runBin(t, "dump", "-format", "json", "-flat", back).Expect(t, 0).Stdout; got != want {
				t.Errorf("%s flat=%v: does not load back to the same World:\n%s\nwant\n%s\nfrom\n%s", f, flat, got, want, text)
			}
		}
	}
}
