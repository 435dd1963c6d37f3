package registry

import (
	"errors"
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/ecs"
)

// Read-only components
//
// A component registered with Definition.ReadOnly is written only by the
// code that owns it. Every public write of the Registry refuses it with a
// *ReadOnlyError: Set, SetPatch, SetProperty, ResetProperty, Remove,
// SetMany, Instantiate (mixins and own components), and
// InstantiatePrefabOver (what is written over the prefab's root); so do
// the inspection API and scene files, which write through them.
//
// The owner writes through one of two deliberate paths:
//
//   - the ecs World itself (an ecs.Map of the component's type, say),
//     below the Registry: the transform system keeps `world` so;
//   - [Registry.Privileged], the Registry's writes without the check:
//     prefab instantiation sets the `prefab` marker of each instance
//     root so, and the loader uses it to build and hot-reload the
//     instances a scene writes (the marker is part of what a scene
//     compiles to).
//
// A read-only component may also be added with its defaults as the
// dependency of another component (world is a dependency of position,
// rotation and scale): the component that depends on it was registered by
// Go code that chose to.

// ErrReadOnly is matched (errors.Is) by the error of a write refused
// because the component is read-only.
var ErrReadOnly = errors.New("read-only component")

// A ReadOnlyError is a write refused because the component is read-only.
type ReadOnlyError struct {
	// Op is the refused operation: "set", "remove" or "add".
	Op string
	// Component is the component's name (an instance name as given).
	Component string
	// Owner says what writes the component (Definition.Owner).
	Owner string
}

// Error says what was refused and what writes the component instead:
//
//	registry: cannot set "world": it is read-only (computed by the transform system from position, rotation and scale: set those instead)
func (e *ReadOnlyError) Error() string {
	msg := fmt.Sprintf("registry: cannot %s %q: it is read-only", e.Op, e.Component)
	if e.Owner != "" {
		msg += " (" + e.Owner + ")"
	}
	return msg
}

// Is reports whether target is ErrReadOnly.
func (e *ReadOnlyError) Is(target error) bool { return target == ErrReadOnly }

// ReadOnly reports whether the component is read-only: set at
// registration (Definition.ReadOnly), never changed after.
func (c *Component) ReadOnly() bool { return c.readOnly }

// Owner says what writes a read-only component (Definition.Owner); empty
// for the others.
func (c *Component) Owner() string { return c.owner }

// refuse returns the error of the write op to c (by the name given), or
// nil if c may be written: it is not read-only, or priv.
func (c *Component) refuse(op, name string, priv bool) error {
	if !c.readOnly || priv {
		return nil
	}
	return &ReadOnlyError{Op: op, Component: name, Owner: c.owner}
}

// CheckWritable returns the *ReadOnlyError a public write op ("set",
// "remove" or "add") of the component would return, or nil: for a caller
// that checks a whole request before changing anything. name is the
// component's name as written (an instance's, "score__q"), for the
// error.
func (c *Component) CheckWritable(op, name string) error { return c.refuse(op, name, false) }

// checkWritable is [Component.CheckWritable] by name: an unknown name is
// an error too.
func (r *Registry) checkWritable(op, name string) error {
	c, _, err := r.Lookup(name)
	if err != nil {
		return err
	}
	return c.refuse(op, name, false)
}

// Privileged is the Registry's write path for the code that owns
// read-only components: the same writes as the Registry's, without the
// read-only check. Get it with [Registry.Privileged]. Prefab
// instantiation and the loader (building and hot-reloading the instances
// of a scene, whose `prefab` markers they write) use it; nothing that
// writes what a user or a client asked for should.
type Privileged struct{ r *Registry }

// Privileged returns the owner's write path (see [Privileged]).
func (r *Registry) Privileged() Privileged { return Privileged{r} }

// ReserveIDs makes room for n more entity ids (SetEntityID), as a loader
// that is about to give them does: the map of ids is made that size at
// once instead of growing as it fills. Small n are ignored.
func (p Privileged) ReserveIDs(n int) {
	st := p.r.store()
	if st == nil || n < 1024 {
		return
	}
	m := make(map[string]ecs.Entity, len(st.byID)+n)
	for id, e := range st.byID {
		m[id] = e
	}
	st.byID = m
}

// SetPatch is [Registry.SetPatch], read-only components included.
func (p Privileged) SetPatch(e ecs.Entity, name string, patch Patch, mode SetMode) error {
	return p.r.setPatch(e, name, patch, mode, true)
}

// SetMany is [Registry.SetMany], read-only components included.
func (p Privileged) SetMany(e ecs.Entity, comps []NamedPatch) error {
	return p.r.setMany(e, comps, true, nil)
}

// Remove is [Registry.Remove], read-only components included.
func (p Privileged) Remove(e ecs.Entity, name string) error {
	return p.r.remove(e, name, true)
}

// checkPrefabNode checks the components of a prefab's node n (root: the
// prefab's root) before it is defined: a read-only component is allowed
// only as the marker of a nested instance, naming the prefab the node
// says it instantiates (the loader's form); instantiation writes it with
// the Registry's own rights.
func (r *Registry) checkPrefabNode(prefab string, n *PrefabNode, root bool, seen map[*PrefabNode]bool) error {
	// Templates share the nodes of the prefabs they nest: each node is
	// looked at once, so the check costs the prefab's text, not the
	// number of entities an instance would have.
	if seen[n] {
		return nil
	}
	seen[n] = true
	for _, np := range n.Components {
		c, _, err := r.Lookup(np.Name)
		if err != nil {
			continue // reported when instantiated, as before
		}
		if !c.readOnly {
			continue
		}
		if r.Prefabs().IsMarker(c) && !root && n.Prefab != "" && len(np.Patch) == 1 && np.Patch[0].Value == PrefabRef(n.Prefab) {
			continue
		}
		where := "its root"
		if !root {
			where = fmt.Sprintf("its part %q", n.Key)
		}
		return &prefabNodeError{fmt.Sprintf("registry: prefab %q: %s: ", prefab, where), c.refuse("add", np.Name, false).(*ReadOnlyError)}
	}
	for _, ch := range n.Children {
		if err := r.checkPrefabNode(prefab, ch, false, seen); err != nil {
			return err
		}
	}
	return nil
}

// prefabNodeError is a read-only component in a prefab's node.
type prefabNodeError struct {
	where string
	err   *ReadOnlyError
}

func (e *prefabNodeError) Error() string {
	return e.where + strings.TrimPrefix(e.err.Error(), "registry: ")
}

func (e *prefabNodeError) Unwrap() error { return e.err }
