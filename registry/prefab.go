package registry

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// PrefabComponent is the name of the read-only component that marks the
// root of every instance of a prefab: its one property (a string) is the
// prefab's name, so `[prefab=ship]` selects the instances of ship and
// `[prefab]` every instance. It is registered with the first prefab
// defined, read-only (see [ErrReadOnly]): prefab instantiation writes it
// (and the loader, for the instances a scene writes, through
// [Registry.Privileged]); scenes cannot write it (`prefab` is the
// reserved key that makes an entity an instance), nor can the
// Registry's public writes or the inspection API.
const PrefabComponent = "prefab"

// Prefab is a named entity subtree, instanced whole by
// [Prefabs.Instantiate] (and the spawner's `prefab` property);
// the loader defines the prefabs of a scene. Its nodes hold their
// components composed (mixins and base prefabs applied), so
// instantiating parses nothing.
type Prefab struct {
	Name string
	Root *PrefabNode

	size int // entities an instance makes, counted by DefinePrefab
}

// PrefabNode is one entity of a prefab.
type PrefabNode struct {
	// Key is the node's name inside the prefab (an unnamed child's
	// 0-based rank among the unnamed children of its parent, in
	// decimal); "" for the root.
	// An instance's part keeps it ([Prefabs.PartKey]), and an instance
	// with an id gives the part the id "<instance id>/<key>" (nested
	// parts: "<parent's id>/<key>").
	Key string
	// Prefab is the prefab this node is itself an instance of (a
	// nested prefab, or the base of a variant for the root), or "".
	Prefab string
	// Class is the node's class list.
	Class []string
	// Components are the node's components, composed per property.
	Components []NamedPatch
	// Children are the node's children, in order.
	Children []*PrefabNode
}

// prefabStore holds the prefabs and the part keys of entities.
type prefabStore struct {
	defs  map[string]*Prefab
	parts []partSlot // by entity index
	nPart int        // slots in use, so that forgetting is free without parts
	comp  *Component // the prefab marker, once registered
	refs  ecs.Map[PrefabRef]
	made  map[ecs.Entity][]NamedPatch // instances made by InstantiatePrefab(Over): what each wrote over its prefab's root
}

// partSlot is the part key of the entity e; a slot whose e is not the
// entity asked about belongs to an earlier occupant of the index.
type partSlot struct {
	e   ecs.Entity
	key string
}

// PrefabRef is the value of the [PrefabComponent] marker.
type PrefabRef string

// Define defines (or replaces) a prefab. It registers the
// [PrefabComponent] marker the first time, and fails if a component of
// that name was registered otherwise.
//
// A read-only component in the prefab's nodes is refused
// (*ReadOnlyError), except the marker of a nested instance naming the
// prefab its node instantiates (PrefabNode.Prefab), as the loader writes
// it.
func (pfs *Prefabs) Define(p *Prefab) error {
	r := pfs.r
	if _, err := r.prefabMarker(); err != nil {
		return err
	}
	if p.Root != nil {
		if err := r.checkPrefabNode(p.Name, p.Root, true, map[*PrefabNode]bool{}); err != nil {
			return err
		}
	}
	p.size = prefabSize(p.Root, map[*PrefabNode]int{})
	r.prefabs.defs[p.Name] = p
	return nil
}

// prefabSize counts the entities of the tree under n, each shared node
// (templates share the nodes of the prefabs they nest) counted once by
// memo, so the count costs the prefab's nodes, not its instance's size.
func prefabSize(n *PrefabNode, memo map[*PrefabNode]int) int {
	if n == nil {
		return 0
	}
	if k, ok := memo[n]; ok {
		return k
	}
	k := 1
	for _, c := range n.Children {
		k = min(k+prefabSize(c, memo), maxPrefabSize) // a DAG's count can grow exponentially
	}
	memo[n] = k
	return k
}

// Remove forgets a prefab. Its instances stay as they are.
func (pfs *Prefabs) Remove(name string) {
	r := pfs.r
	delete(r.prefabs.defs, name)
}

// Get returns the prefab defined under name.
func (pfs *Prefabs) Get(name string) (*Prefab, bool) {
	r := pfs.r
	p, ok := r.prefabs.defs[name]
	return p, ok
}

// Names returns the names of the defined prefabs, sorted.
func (pfs *Prefabs) Names() []string {
	r := pfs.r
	out := make([]string, 0, len(r.prefabs.defs))
	for n := range r.prefabs.defs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// prefabMarker returns the marker component, registering it if needed.
func (r *Registry) prefabMarker() (*Component, error) {
	st := &r.prefabs
	if st.comp != nil {
		return st.comp, nil
	}
	if c, ok := r.comps[PrefabComponent]; ok {
		return nil, fmt.Errorf("registry: component %q is registered by the program; prefabs need the name for their marker", c.Name)
	}
	c, err := Register(r, PrefabComponent, Definition[PrefabRef]{
		ReadOnly: true,
		Owner:    "the marker of prefab instances, set when a prefab is instantiated: instantiate the prefab instead",
	})
	if err != nil {
		return nil, err
	}
	st.comp, st.refs = c, ecs.NewMap[PrefabRef](r.w, c.ID)
	r.w.Observe(ecs.EntityDestroyed, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		if len(st.made) > 0 {
			delete(st.made, e)
		}
		if st.nPart > 0 {
			if i := int(e.Index()); i < len(st.parts) && st.parts[i].e == e {
				st.parts[i] = partSlot{}
				st.nPart--
			}
		}
	})
	return c, nil
}

// IsMarker reports whether c is the [PrefabComponent] marker of
// its Registry, which exports write as `prefab: NAME`, not as a
// component.
func (pfs *Prefabs) IsMarker(c *Component) bool {
	r := pfs.r
	return c != nil && c == r.prefabs.comp
}

// Of returns the prefab e is an instance of ("" for none), as its
// marker says.
func (pfs *Prefabs) Of(e ecs.Entity) string {
	r := pfs.r
	if r.prefabs.comp == nil {
		return ""
	}
	if v := r.prefabs.refs.Get(e); v != nil {
		return string(*v)
	}
	return ""
}

// SetPartKey records that e is a part of a prefab's instance, key being
// its name inside the prefab ("" forgets it). The loader and
// InstantiatePrefab call it; exports and hot reload use it to match the
// part with the prefab's node.
func (pfs *Prefabs) SetPartKey(e ecs.Entity, key string) {
	r := pfs.r
	st := &r.prefabs
	i := int(e.Index())
	if key == "" {
		if i < len(st.parts) && st.parts[i].e == e {
			st.parts[i] = partSlot{}
			st.nPart--
		}
		return
	}
	if i >= len(st.parts) {
		st.parts = append(st.parts, make([]partSlot, i+1-len(st.parts))...)
	}
	if st.parts[i].e != e {
		st.nPart++
	}
	st.parts[i] = partSlot{e: e, key: key}
}

// PartKey returns e's name inside the prefab it is a part of, or "".
func (pfs *Prefabs) PartKey(e ecs.Entity) string {
	r := pfs.r
	st := &r.prefabs
	if i := int(e.Index()); i < len(st.parts) && st.parts[i].e == e {
		return st.parts[i].key
	}
	return ""
}

// Instantiate creates an instance of the prefab name under parent
// (a root if parent is the zero Entity): the prefab's root entity with
// the marker [PrefabComponent], and its whole subtree, each entity with
// its composed components and classes, children in order. With an id,
// the root gets it and each part "<parent's id>/<key>". On an error
// nothing is left behind. An instance whose entities would bring the
// World past Limits.MaxEntities is refused (an error wrapping
// [ErrLimit]) before anything is made, as is any once the context set
// with [Registry.SetContext] is done.
func (pfs *Prefabs) Instantiate(parent ecs.Entity, name, id string) (ecs.Entity, error) {
	r := pfs.r
	return r.Prefabs().InstantiateOver(parent, name, id, nil, nil)
}

// InstantiateOver is [Prefabs.Instantiate] with the
// components of the mixins mixinIDs and then own written over the
// root's, per property, as an instance's mixins and own components are
// in a scene (the spawner's prefab property uses it). The Registry keeps
// what they give until the root is destroyed ([Prefabs.Overrides]),
// so that hot reload leaves those properties to the instance when the
// prefab changes, as it does for an instance a scene writes. A read-only
// component among them (the marker itself, say) is refused
// (*ReadOnlyError) before anything is made.
func (pfs *Prefabs) InstantiateOver(parent ecs.Entity, name, id string, mixinIDs []string, own []NamedPatch) (ecs.Entity, error) {
	r := pfs.r
	p, ok := r.prefabs.defs[name]
	if !ok {
		return ecs.Entity{}, fmt.Errorf("registry: unknown prefab %q%s", name, nearestPrefab(r, name))
	}
	if err := r.roomFor(p.size); err != nil {
		return ecs.Entity{}, fmt.Errorf("registry: instance of prefab %q: %w", name, err)
	}
	if id != "" {
		if _, used := r.EntityByID(id); used {
			return ecs.Entity{}, fmt.Errorf("registry: instance of prefab %q: id %q is already used", name, id)
		}
	}
	var over []NamedPatch
	if len(mixinIDs) > 0 || len(own) > 0 {
		ms, err := r.Mixins().Expand(mixinIDs)
		if err != nil {
			return ecs.Entity{}, err
		}
		over = r.Mixins().Compose(ms, own)
		for _, np := range over {
			if err := r.checkWritable("add", np.Name); err != nil {
				return ecs.Entity{}, err
			}
		}
	}
	marker := NamedPatch{Name: PrefabComponent, Patch: Patch{{Index: 0, Value: PrefabRef(name)}}}
	e, err := r.instantiateNode(parent, p.Root, id, "", marker, over)
	if err != nil {
		if !e.IsZero() {
			_ = r.w.Destroy(e)
		}
		return ecs.Entity{}, err
	}
	if r.prefabs.made == nil {
		r.prefabs.made = map[ecs.Entity][]NamedPatch{}
	}
	r.prefabs.made[e] = over
	r.Events().EmitLoaded(e)
	return e, nil
}

// Overrides returns what [Prefabs.InstantiateOver] wrote
// over the prefab's root when it made e (mixins and own components
// composed), or nil. The slice is the Registry's: do not modify it.
func (pfs *Prefabs) Overrides(e ecs.Entity) []NamedPatch {
	r := pfs.r
	return r.prefabs.made[e]
}

// Spawned returns the roots of the live instances that
// [Prefabs.Instantiate] and [Prefabs.InstantiateOver]
// made (not those a loader builds from a scene), sorted by entity
// index. Hot reload walks them to make them follow an edit of their
// prefab.
func (pfs *Prefabs) Spawned() []ecs.Entity {
	r := pfs.r
	out := make([]ecs.Entity, 0, len(r.prefabs.made))
	for e := range r.prefabs.made {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b ecs.Entity) int { return cmp.Compare(a.Index(), b.Index()) })
	return out
}

// maxPrefabSize caps the entity count PrefabSize reports.
const maxPrefabSize = 1 << 53

// Size returns the number of entities an instance of the prefab
// name has (0 if it is not defined), as counted when it was defined: a
// program that changes a prefab's nodes afterwards defines it again.
func (pfs *Prefabs) Size(name string) int {
	r := pfs.r
	p, ok := r.prefabs.defs[name]
	if !ok {
		return 0
	}
	return p.size
}

// instantiateNode creates the entity of n under parent with the id and
// part key given (see Registry.Create), and its subtree; over (composed)
// is written over n's components per property, and marker, if it has a
// name, set over them. If a part of its subtree fails, it returns the
// entity made with the error, for the caller to destroy.
func (r *Registry) instantiateNode(parent ecs.Entity, n *PrefabNode, id, key string, marker NamedPatch, over []NamedPatch) (ecs.Entity, error) {
	comps := n.Components
	if len(over) > 0 {
		comps = r.Mixins().Compose([]*Mixin{{Components: comps}}, over)
	}
	if marker.Name != "" {
		comps = append(comps[:len(comps):len(comps)], marker)
	}
	// The Registry's own rights: the marker is read-only, and the
	// node's components were checked by DefinePrefab, over by the caller.
	e, err := r.create(parent, &CreateSpec{ID: id, Classes: n.Class, Components: comps, PartKey: key}, true)
	if err != nil {
		return ecs.Entity{}, err
	}
	for _, ch := range n.Children {
		cid := ""
		if id != "" {
			cid = id + "/" + ch.Key
		}
		if _, err := r.instantiateNode(e, ch, cid, ch.Key, NamedPatch{}, nil); err != nil {
			return e, err
		}
	}
	return e, nil
}

func nearestPrefab(r *Registry, name string) string {
	return didyoumean.Hint(name, r.Prefabs().Names())
}

// InstantiatePart creates the prefab node n (a part of an instance)
// under parent, with its subtree: the part's key recorded, the id given
// (its parts get "<id>/<key>"). Hot reload uses it to add a part a
// prefab edit adds to an instance spawned at run time. Like
// [Prefabs.Instantiate], it checks Limits.MaxEntities (the part's
// subtree counted) and the context first.
func (pfs *Prefabs) InstantiatePart(parent ecs.Entity, n *PrefabNode, id string) (ecs.Entity, error) {
	r := pfs.r
	if err := r.roomFor(prefabSize(n, map[*PrefabNode]int{})); err != nil {
		return ecs.Entity{}, fmt.Errorf("registry: part of a prefab's instance: %w", err)
	}
	e, err := r.instantiateNode(parent, n, id, n.Key, NamedPatch{}, nil)
	if err != nil {
		if !e.IsZero() {
			_ = r.w.Destroy(e)
		}
		return ecs.Entity{}, err
	}
	return e, nil
}
