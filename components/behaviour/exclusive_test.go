package behaviour_test

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
)

// TestBehaviourStaysExclusive: the behaviour system emits events and
// changes the World at once, so a scene may not run it under the
// parallel rules: `_exclusive: false` is refused where it is written
// (issue 32: it passed validate and made run die with a Go stack trace);
// its other schedule keys are taken.
func TestBehaviourStaysExclusive(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"scene.yaml", "scene:\n  behaviour: {_exclusive: false}\nentities: []\n", "scene.yaml:2:27: scene: behaviour: _exclusive: false: behaviour must run alone"},
		{"scene.xml", "<scene behaviour=\"_exclusive: false\"/>\n", "scene.xml:1:31: scene: behaviour: _exclusive: false: behaviour must run alone"},
		// physics emits collide at once too (it died the same way).
		{"scene.yaml", "scene:\n  physics: \"step: 0.02; _exclusive: false\"\n", "scene.yaml:2:37: scene: physics: _exclusive: false: physics must run alone"},
	} {
		_, err := loader.LoadBytes(newRegistry(t), c.name, []byte(c.text), loader.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.text, err, c.want)
		}
	}
	reg := newRegistry(t)
	_, err := loader.LoadBytes(reg, "scene.yaml", []byte("scene:\n  behaviour: {_exclusive: true, _every: 2}\nentities: []\n"), loader.Options{})
	must(t, err)
	if set, _ := reg.Schedule().Settings("behaviour"); set.Every != 2 || set.Access == nil || !set.Access.Exclusive {
		t.Errorf("settings %+v", set)
	}
}
