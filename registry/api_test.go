package registry

import (
	"reflect"
	"testing"
)

// maxRegistryMethods bounds the exported methods of *Registry: what only
// one layer uses belongs to that layer, and groups with state of their own
// are types reached from the Registry ([Registry.Prefabs],
// [Registry.Mixins], [Registry.Events], [Registry.Privileged]). It was 50
// until [Registry.Relation], the selector's contract for references
// (selector.Relations, beside ComponentIDs and PropertyReader), came.
const maxRegistryMethods = 51

// TestRegistryMethods keeps *Registry at most maxRegistryMethods
// exported methods, as go doc lists them, listing them when it fails.
// DocOrderIndex is not counted: it is promoted from an embedded
// unexported field (docShare) for internal/docorder.Sharer, go doc does
// not list it, and its result is of an internal package.
func TestRegistryMethods(t *testing.T) {
	rt := reflect.TypeFor[*Registry]()
	var names []string
	for i := range rt.NumMethod() {
		if m := rt.Method(i).Name; m != "DocOrderIndex" {
			names = append(names, m)
		}
	}
	if len(names) > maxRegistryMethods {
		t.Errorf("*Registry has %d exported methods, at most %d: %v", len(names), maxRegistryMethods, names)
	}
	for _, g := range []reflect.Type{reflect.TypeFor[*Prefabs](), reflect.TypeFor[*Mixins](), reflect.TypeFor[*Events]()} {
		if g.NumMethod() == 0 {
			t.Errorf("%v has no methods", g)
		}
	}
}
