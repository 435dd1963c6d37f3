package live

import (
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// compileDoc compiles doc against reg without options, as a reload does.
func compileDoc(doc *scenefile.Document, reg *registry.Registry) (*plan.Plan, error) {
	return plan.Compile(doc, reg, plan.Options{})
}
