package editorschema

import (
	"flag"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// newTestRegistry returns a Registry on a fresh World with the built-ins
// registered.
func newTestRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// Sound is a multiple component, as the loader's golden tests register.
type Sound struct {
	Src    string  `scene:"src"`
	Volume float64 `scene:"volume,default=1,min=0,max=1"`
	Loop   bool    `scene:"loop"`
}

// Audio configures an audio system, as the loader's golden tests register.
type Audio struct {
	Volume float64 `scene:"volume,default=1"`
	Muted  bool    `scene:"muted"`
}

// newRichRegistry returns a Registry with the built-ins, the multiple
// component sound and the system audio: what the golden scenes use.
func newRichRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := newTestRegistry(tb)
	if _, err := registry.Register[Sound](reg, "sound", registry.Definition[Sound]{Multiple: true}); err != nil {
		tb.Fatal(err)
	}
	if _, err := registry.RegisterSystem[Audio](reg, "audio", registry.SystemDefinition[Audio]{}); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// compile compiles doc against reg, as a load does before building.
func compile(doc *scenefile.Document, reg *registry.Registry) (*plan.Plan, error) {
	return plan.Compile(doc, reg, plan.Options{})
}

var update = flag.Bool("update", false, "rewrite the golden schemas in testdata/golden")
