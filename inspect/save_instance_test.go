package inspect

import (
	"net/http"
	"strings"
	"testing"
)

const instanceYAML = `prefabs:
  rock:
    spin: "axis: 0 0 1; speed: 45"
    children:
      - class: chip
        position: 1 0 0
      - class: chip
        position: 2 0 0
entities:
  - id: field
    children:
      - id: r1
        prefab: rock
        position: 1 1 1
`

const instanceXML = `<scene>
  <prefab name="rock" spin="axis: 0 0 1; speed: 45">
    <entity class="chip" position="1 0 0"/>
    <entity class="chip" position="2 0 0"/>
  </prefab>
  <entity id="field">
    <entity id="r1" prefab="rock" position="1 1 1"/>
  </entity>
</scene>
`

// TestSaveCloneInstance: a saved clone of a prefab's instance is written
// as an instance of that prefab with what it has over it: its own
// components, its parts' changes (a moved part, a part given a class)
// and the parts it lacks (removed). A reload then finds nothing to do,
// and undo takes the block out again.
func TestSaveCloneInstance(t *testing.T) {
	for _, c := range []struct{ name, src string }{{"scene.yaml", instanceYAML}, {"scene.xml", instanceXML}} {
		t.Run(c.name, func(t *testing.T) {
			e, file := newSaveEnv(t, c.name, c.src)
			e.paused()
			e.call("PUT", "/api/entities/r1%2F0/components/position", "5 5 5").expect(t, http.StatusOK)
			e.call("DELETE", "/api/entities/r1%2F1", "").expect(t, http.StatusOK)
			e.call("PUT", "/api/entities/r1/components/spin", "speed: 90").expect(t, http.StatusOK)
			e.call("POST", "/api/entities/r1/clone?save=1", `{"id":"r9"}`).expect(t, http.StatusCreated)
			saved := readFile(t, file)
			// The clone's spin is written as what it changes over the
			// prefab (speed), not with the prefab's axis or defaults.
			if strings.Count(saved, "axis") != 1 || !strings.Contains(saved, `spin="speed: 90"`) && !strings.Contains(saved, `spin: "speed: 90"`) && !strings.Contains(saved, `spin: 'speed: 90'`) && !strings.Contains(saved, "spin: speed: 90") {
				t.Errorf("the saved clone's spin is not its change alone:\n%s", saved)
			}
			for _, want := range []string{"r9", "5 5 5", "removed"} {
				if !strings.Contains(saved, want) {
					t.Errorf("the saved clone lacks %q:\n%s", want, saved)
				}
			}
			if strings.Count(saved, "rock") != strings.Count(c.src, "rock")+1 {
				t.Errorf("the clone is not written as an instance of rock:\n%s", saved)
			}
			e.sim(func() {
				d, err := e.in.opt.Reloader.Reload()
				if err != nil || !d.Empty() {
					t.Errorf("after the saved clone a reload finds %v %v\n%s", d, err, saved)
				}
			})
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != c.src {
				t.Errorf("undo of the saved clone: the file is\n%s", got)
			}
		})
	}
}
