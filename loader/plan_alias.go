package loader

import (
	"context"

	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/registry"
)

// The compiled scene, from package plan.
type (
	// Plan is [plan.Plan].
	Plan = plan.Plan
	// Node is [plan.Node].
	Node = plan.Node
	// DeclPlan is [plan.DeclPlan].
	DeclPlan = plan.DeclPlan
	// MixinPlan is [plan.MixinPlan].
	MixinPlan = plan.MixinPlan
	// SystemPlan is [plan.SystemPlan].
	SystemPlan = plan.SystemPlan
	// PrefabPlan is [plan.PrefabPlan].
	PrefabPlan = plan.PrefabPlan
)

// Compile validates doc against reg and returns its [Plan] (see
// [plan.Compile]).
func Compile(doc *Document, reg *registry.Registry) (*Plan, error) {
	return plan.Compile(doc, reg, plan.Options{})
}

// CompileContext is [Compile], interrupted when ctx is done.
func CompileContext(ctx context.Context, doc *Document, reg *registry.Registry) (*Plan, error) {
	return plan.Compile(doc, reg, plan.Options{Context: ctx})
}
