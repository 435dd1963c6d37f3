package live

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/regfile"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Saving a running scene's changes into its files.
//
// A change made at run time (through the inspector, say) is saved in two
// steps. Prepare reads the scene's files as they are now, checks that they
// still say what the running scene was loaded from, finds the entity's own
// place (in the main file or an include; never in a mixin), edits the
// bytes (EditComponent, EditRemove) and compiles the result: the diff it
// makes to the running scene must touch that one component of that one
// entity and nothing else. Nothing is written yet, so a refusal leaves
// everything as it was. Commit then writes the file (a temporary file in
// the same directory renamed over it: a watcher never reads half a file)
// and applies that diff to the running scene, which brings the scene's
// Plan up to date with the file. The World already holds the values
// (the change was made there), so applying sets nothing and runs no hook;
// and a watcher's reload of the saved file then finds nothing to do.

// SaveEdit is a change of one of a running scene's files, prepared by
// Saver.PrepareSet or Saver.PrepareRemove: the file's bytes before
// and after, checked, not yet written.
type SaveEdit struct {
	// File is the path of the file the edit changes: the scene file or
	// one it includes.
	File string
	// Name is the file as the scene names it (relative to the scene
	// file's directory), Pos the entity's position in it before the edit.
	Name string
	Pos  scenefile.Pos
	// Before and After are the file's bytes; equal when the file already
	// says what was asked (nothing is written then).
	Before, After []byte

	r     *Reloader
	diff  *Diff
	snap  scenefile.Snapshot
	world *worldState // the component as the World held it at Prepare, for undo
	done  bool
}

// Changed reports whether the edit changes the file.
func (s *SaveEdit) Changed() bool { return !bytes.Equal(s.Before, s.After) }

// Saver saves changes made to a running scene at run time into the
// scene's files: PrepareSet and PrepareRemove read the files (with the
// Reloader's options) and make a SaveEdit, checked and not yet written,
// whose Commit writes the file and brings the running scene's Plan up to
// date with it. A Reloader only reads and applies; a Saver writes.
type Saver struct {
	r *Reloader
}

// NewSaver returns the Saver of the files r reloads: its scene, file and
// options.
func NewSaver(r *Reloader) *Saver { return &Saver{r: r} }

// PrepareSet prepares saving the properties attr gives (an attribute
// string, as Registry.SetPatch takes after parsing it) on component name
// of entity e into the scene file e comes from (see EditComponent for
// where and how). Call it on the goroutine that runs the simulation,
// before making the same change in the World (it records the component
// as the World holds it, for Commit to put back if the file cannot be
// written), and Commit right after the change, with no tick or reload
// between.
//
// Errors: an entity the scene did not make from a file (spawned, or made
// by the program or the inspector), or a component a file does not write
// (the world transform), wraps ErrNoSource; the prefab marker wraps
// ErrFromPrefab; files that no longer say what the running scene was
// loaded from (edited and not yet reloaded) wrap ErrFileChanged; a
// read-only file wraps ErrReadOnly; a place the editor cannot edit, or
// an edit that would change anything else, wraps ErrCannotEdit.
func (s *Saver) PrepareSet(e ecs.Entity, name, attr string) (*SaveEdit, error) {
	return s.r.prepare(e, name, attr, false)
}

// PrepareRemove prepares removing component name of entity e from the
// scene file e comes from (see EditRemove). Only a component the entity
// gets from its own key alone can be removed there: one it (also) gets
// from a mixin is refused with ErrFromMixin, from its prefab or a
// variant's base (or the prefab marker itself) with ErrFromPrefab, and
// one that a component it has needs, however deep the dependency, with
// ErrNoSource: the file cannot say "this entity, without it". For one
// added at run time there is nothing to write (the SaveEdit does not
// change the file). Otherwise as PrepareSet.
func (s *Saver) PrepareRemove(e ecs.Entity, name string) (*SaveEdit, error) {
	return s.r.prepare(e, name, "", true)
}

// saveReq is what PrepareSet or PrepareRemove asks of a Reloader.
type saveReq struct {
	e      ecs.Entity
	name   string // the component
	remove bool
	what   string // the entity, for messages: "#id" or its path
	node   *plan.Node
	comp   *registry.Component
	props  []edit.Prop // the properties to set
}

func (r *Reloader) prepare(e ecs.Entity, name, attr string, remove bool) (*SaveEdit, error) {
	q, err := r.saveRequest(e, name, attr, remove)
	if err != nil {
		return nil, err
	}
	if s, done, err := r.nothingToWrite(q); done {
		return s, err
	}
	if s := r.quickEdit(q); s != nil {
		return s, nil
	}
	return r.sureEdit(q)
}

// saveRequest checks that e was made from a scene file and that name is
// a registered component, and parses attr (unless remove).
func (r *Reloader) saveRequest(e ecs.Entity, name, attr string, remove bool) (*saveReq, error) {
	sc := r.Scene
	reg := sc.Registry
	q := &saveReq{e: e, name: name, remove: remove, what: export.EntityPath(reg, e)}
	node, ok := sc.NodeOf(e)
	if !ok || !sc.World.Alive(e) {
		return nil, fmt.Errorf("entity %s was made at run time (spawned, or created by the program or through the inspector): it has no place in a scene file: %w", q.what, ErrNoSource)
	}
	q.node = node
	if node.ID() != "" {
		q.what = "#" + node.ID()
	}
	if node.Key() != "" {
		inst := node.InstanceRoot()
		return nil, fmt.Errorf("entity %s is the part %q of an instance of the prefab %q (%s): its values come from the prefab, and save-back does not write an instance's parts; write it under parts: in the instance, or edit the prefab: %w",
			q.what, node.Key(), inst.Prefab(), export.EntityPath(reg, sc.ents[inst.Index]), ErrCannotEdit)
	}
	if q.comp, ok = reg.Component(name); !ok {
		return nil, fmt.Errorf("unknown component %q", name)
	}
	switch {
	case reg.Prefabs().IsMarker(q.comp):
		return nil, fmt.Errorf("%s: %s is the marker of entity %s's prefab, which a scene file writes as the entity's %s: key (the key that makes it an instance, with the prefab's components and children); save-back does not change what an entity is an instance of: edit the file: %w",
			node.Src.Pos, name, q.what, scenefile.YAMLPrefab, ErrFromPrefab)
	case q.comp.ReadOnly():
		return nil, fmt.Errorf("%s is read-only (%s), and a scene file does not write it: %w", name, q.comp.Owner(), ErrNoSource)
	}
	if !remove {
		var err error
		if q.props, err = attrProps(q.comp.Schema, name, attr); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// nothingToWrite decides, from what the running scene says, the requests
// that need no edit (done): one the file cannot say (an error), or one it
// already says (a SaveEdit that does not change the file).
func (r *Reloader) nothingToWrite(q *saveReq) (s *SaveEdit, done bool, err error) {
	sc, ent, name := r.Scene, q.node.Src, q.name
	inOwn, inComps := writesComponent(q.node, name), hasNamed(q.node.Comps, name)
	mixin := ""
	if inComps && len(ent.Mixins) > 0 {
		mixin = mixinGiving(sc.Plan, ent.Mixins, name)
	}
	unchanged := &SaveEdit{File: scenePath(r.File, ent.File), Name: ent.File, Pos: ent.Pos, r: r}
	if !q.remove {
		if len(q.props) == 0 && inComps {
			// There, and nothing to set: nothing to write.
			return unchanged, true, nil
		}
		return nil, false, nil
	}
	// A removal the file can write only if nothing but the entity's own
	// key gives the component.
	prefab := ""
	if inComps && q.node.Prefab() != "" {
		prefab = prefabGiving(sc.Plan, q.node.Prefab(), name)
	}
	switch dep := dependentOn(sc.Registry, name, q.node.Comps); {
	case mixin != "":
		return nil, true, fmt.Errorf("%s: entity %s gets %s from mixin %q, and a scene file cannot take a mixin's component away from one entity (remove it from the mixin, or the mixin from the entity): %w", ent.Pos, q.what, name, mixin, ErrFromMixin)
	case prefab != "":
		return nil, true, fmt.Errorf("%s: entity %s is an instance of prefab %q and gets %s from %s, and a scene file cannot take a prefab's component away from one instance (remove it from the prefab, or write the values this instance should have): %w", ent.Pos, q.what, q.node.Prefab(), name, prefab, ErrFromPrefab)
	case dep != "":
		return nil, true, fmt.Errorf("%s: entity %s gets %s as a dependency of %s, which the scene file gives it: the file cannot say \"without\" (remove %s too): %w", ent.Pos, q.what, name, dep, dep, ErrNoSource)
	case !inOwn && inComps:
		return nil, true, fmt.Errorf("%s: entity %s gets %s from the scene file other than by its own key, and the file cannot say \"without\": %w", ent.Pos, q.what, name, ErrNoSource)
	case !inOwn:
		// Added at run time: the file already says "without".
		return unchanged, true, nil
	}
	return nil, false, nil
}

// prefabGiving returns what gives the component name to the instances
// of prefab: `prefab "ship"` (its body, or a mixin of it) or the base
// of a variant (`prefab "ship", the base of variant "big-ship"`); "" if
// the prefab does not give it.
func prefabGiving(pl *plan.Plan, prefab, name string) string {
	pp := pl.Prefabs[prefab]
	if pp == nil || pp.Root == nil || !hasNamed(pp.Root.Comps, name) {
		return ""
	}
	what := fmt.Sprintf("prefab %q", prefab)
	for seen := map[string]bool{}; pp != nil && pp.Src != nil && pp.Src.Body != nil && !seen[pp.Src.Name]; {
		seen[pp.Src.Name] = true
		body := pp.Src.Body
		if hasComponent(body.Components, name) || len(body.Mixins) > 0 && mixinGiving(pl, body.Mixins, name) != "" {
			if pp.Src.Name != prefab {
				what = fmt.Sprintf("prefab %q, the base of variant %q", pp.Src.Name, prefab)
			}
			return what
		}
		pp = pl.Prefabs[body.Prefab()]
	}
	return what
}

// hasComponent reports whether cs has a component called name.
func hasComponent(cs []*scenefile.ComponentSpec, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

// dependentOn returns a component of nps, other than name itself, that
// needs name: it lists name among its dependencies, or a dependency of
// it does, however deep (acceleration needs velocity, which needs
// position). "" if none does.
func dependentOn(reg *registry.Registry, name string, nps []registry.NamedPatch) string {
	for _, np := range nps {
		if np.Name == name {
			continue
		}
		seen := map[string]bool{}
		stack := []string{np.Name}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			base, _, _ := strings.Cut(c, "__")
			rc, ok := reg.Component(base)
			if !ok {
				continue
			}
			for _, d := range rc.Dependencies {
				if d == name {
					return np.Name
				}
				if !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		}
	}
	return ""
}

// edit makes the requested edit of entity ent in its file's bytes src.
func (q *saveReq) edit(ent *scenefile.EntitySpec, src []byte) ([]byte, error) {
	if q.remove {
		return EditRemove(src, ent, q.name)
	}
	return editComponentChecked(src, ent, q.name, q.comp.Schema, q.props)
}

// quickEdit makes the edit the quick way, or returns nil: when the
// entity's file still holds the bytes the running scene was read from,
// its positions hold; the check then shows whether the other files still
// say what the scene was loaded from.
func (r *Reloader) quickEdit(q *saveReq) *SaveEdit {
	ent := q.node.Src
	src := entitySource(ent)
	if src == nil {
		return nil
	}
	path := scenePath(r.File, ent.File)
	lim := r.Options.Limits.WithDefaults()
	if cur, _, err := regfile.Read(path, lim.MaxBytes, nil); err != nil || !bytes.Equal(cur, src) {
		return nil
	}
	out, err := q.edit(ent, src)
	if err != nil {
		return nil
	}
	s, err := r.checkEdit(q, ent, path, src, out, nil)
	if err != nil {
		return nil
	}
	return s
}

// sureEdit makes the edit the sure way: it reads the files as they are
// now; they must say what the running scene was loaded from (a change of
// comments is fine), and give the entity's place in their bytes.
func (r *Reloader) sureEdit(q *saveReq) (*SaveEdit, error) {
	sc := r.Scene
	pl, sfs, err := checkFile(sc.Registry, r.File, r.Options, nil)
	if err != nil {
		return nil, fmt.Errorf("the scene's files do not load as they are now; nothing saved:\n%v\n%w", err, ErrFileChanged)
	}
	d := sc.Diff(pl)
	if !d.Empty() {
		return nil, fmt.Errorf("%s: %w and are not reloaded yet (reloading them would do %s); nothing saved", r.File, ErrFileChanged, d.Summary())
	}
	fresh := matchedNode(d, q.e)
	if fresh == nil {
		return nil, fmt.Errorf("entity %s is not in the scene's files: %w", q.what, ErrNoSource)
	}
	ent := fresh.Src
	path := sfs.Path(ent.File)
	src, ok := sfs.Snapshot()[path]
	if !ok {
		return nil, fmt.Errorf("%s: the file of entity %s was not read", ent.File, q.what)
	}
	out, err := q.edit(ent, src)
	if err != nil {
		return nil, err
	}
	s, err := r.checkEdit(q, ent, path, src, out, sfs.Snapshot())
	if err != nil {
		return nil, fmt.Errorf("%s: the edit of %s on entity %s: %w", ent.Pos, q.name, q.what, err)
	}
	return s, nil
}

// checkEdit compiles the scene with out as the bytes of the file at path
// (the other files from base, or read) and checks that the diff to the
// running scene changes component q.name of q.e, as asked, and nothing
// else: the entity composes every other component and property as
// before (see sameEntity), and no other entity, mixin, prefab,
// declaration or setting changes.
func (r *Reloader) checkEdit(q *saveReq, ent *scenefile.EntitySpec, path string, src, out []byte, base scenefile.Snapshot) (*SaveEdit, error) {
	snap := maps.Clone(base)
	if snap == nil {
		snap = scenefile.Snapshot{}
	}
	snap[path] = out
	pl, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, snap)
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := r.Scene.Diff(pl)
	if err := onlyThis(d, q.e, q.name, q.remove); err != nil {
		return nil, fmt.Errorf("it would change more than that (%v); nothing saved: %w", err, ErrCannotEdit)
	}
	n := matchedNode(d, q.e)
	if n == nil {
		return nil, fmt.Errorf("the entity is not in the edited files; nothing saved: %w", ErrCannotEdit)
	}
	if q.remove && writesComponent(n, q.name) {
		return nil, fmt.Errorf("the component is still in the edited file; nothing saved: %w", ErrCannotEdit)
	}
	if err := q.sameEntity(r.Scene.Registry, n); err != nil {
		return nil, fmt.Errorf("the edited file would not give the entity what was asked (%v); nothing saved: %w", err, ErrCannotEdit)
	}
	if !bytes.Equal(src, out) {
		if _, _, err := checkWritable(path); err != nil {
			return nil, err
		}
	}
	return &SaveEdit{File: path, Name: ent.File, Pos: ent.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.Snapshot(),
		world: r.recordWorld(q.e, q.name)}, nil
}

// matchedNode returns the node of d's new plan matched to entity e.
func matchedNode(d *Diff, e ecs.Entity) *plan.Node {
	for i, x := range d.ents {
		if x == e {
			return d.new.Nodes[i]
		}
	}
	return nil
}

// entitySource returns the bytes of the file ent was read from, as the
// reader kept them with its components (nil for an entity without any).
func entitySource(ent *scenefile.EntitySpec) []byte {
	for _, c := range ent.Components {
		if src := c.Source(); src != nil {
			return src.Data()
		}
	}
	return nil
}

// scenePath returns the path of the file the scene file names name (a
// name relative to its directory), as reading the scene makes it.
func scenePath(file, name string) string {
	dir, _ := filepath.Split(filepath.Clean(file))
	if dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// Commit writes the edited file, if the edit changes it, and applies the
// edit to the running scene: its Plan then matches the file, and the
// World, which already holds the change, is not touched (no hook runs).
// The file is written as replaceFile says: never over an editor's save,
// never over a read-only file, a symbolic link followed, not replaced.
// It returns the diff applied. A SaveEdit commits once.
//
// If the file cannot be written (it changed since PrepareSet or
// PrepareRemove read it: ErrFileChanged; it is read-only: ErrReadOnly;
// or the system failed), nothing is written and the change made in the
// World since the edit was prepared is undone: the component is put back
// as it was then (its hooks run for that, as for any change), so that the
// World, the Plan and the file agree again. Should that fail too, the
// error also wraps ErrNotUndone.
func (s *SaveEdit) Commit() (*Diff, error) {
	if s.done {
		return nil, errors.New("loader: SaveEdit committed twice")
	}
	s.done = true
	if s.diff == nil {
		return &Diff{}, nil // nothing to write or apply
	}
	if s.Changed() {
		if err := replaceFile(s.File, s.Before, s.After, s.r.Options.Limits.WithDefaults().MaxBytes); err != nil {
			if uerr := s.undo(); uerr != nil {
				err = fmt.Errorf("%w; and %w: %v", err, ErrNotUndone, uerr)
			}
			return nil, err
		}
	}
	s.r.last = s.snap
	return s.diff, s.r.Scene.Apply(s.diff)
}

// worldState is a component of an entity as the World held it when a
// save was prepared, to undo the change if the save fails.
type worldState struct {
	e    ecs.Entity
	name string
	had  bool
	vals []any
}

// recordWorld records component name of e as the World holds it now.
func (r *Reloader) recordWorld(e ecs.Entity, name string) *worldState {
	reg := r.Scene.Registry
	w := &worldState{e: e, name: name, had: reg.Has(e, name)}
	if w.had {
		if vals, err := reg.Values(e, name); err == nil {
			w.vals = slices.Clone(vals)
		}
	}
	return w
}

// undo puts the component recorded at Prepare back as it was.
func (s *SaveEdit) undo() error {
	w, reg := s.world, s.r.Scene.Registry
	if w == nil || !reg.World().Alive(w.e) {
		return nil
	}
	if !w.had {
		if reg.Has(w.e, w.name) {
			return reg.Remove(w.e, w.name)
		}
		return nil
	}
	if now, err := reg.Values(w.e, w.name); err == nil && reflect.DeepEqual(now, w.vals) {
		return nil // as it was
	}
	p := make(registry.Patch, len(w.vals))
	for i, v := range w.vals {
		p[i] = registry.PropValue{Index: i, Value: v}
	}
	return reg.SetPatch(w.e, w.name, p, registry.Merge)
}

// writesComponent reports whether the entity of n writes the component
// name itself (not through a mixin or its prefab).
func writesComponent(n *plan.Node, name string) bool {
	for _, c := range n.Src.Components {
		if c.Name == name {
			return true
		}
	}
	return false
}

// hasNamed reports whether nps has a component called name.
func hasNamed(nps []registry.NamedPatch, name string) bool {
	for _, np := range nps {
		if np.Name == name {
			return true
		}
	}
	return false
}

// mixinGiving returns the id of a mixin among ids (expanded) that gives
// the component name, or "".
func mixinGiving(pl *plan.Plan, ids []string, name string) string {
	ms, err := schema.ExpandMixinsFunc(ids, func(id string) (*registry.Mixin, bool) {
		m, ok := pl.Mixins[id]
		if !ok {
			return nil, false
		}
		return m.Mixin, true
	})
	if err != nil {
		return ""
	}
	for _, m := range ms {
		if hasNamed(m.Components, name) {
			return m.ID
		}
	}
	return ""
}

// onlyThis checks that d changes nothing but component name of entity e
// (removes it if remove, else adds or sets it).
func onlyThis(d *Diff, e ecs.Entity, name string, remove bool) error {
	if d.changesBeyond(partChanged) {
		return errors.New(d.String())
	}
	for _, c := range d.Changed {
		if c.Entity != e || c.Classes {
			return errors.New(d.String())
		}
		for _, a := range c.Added {
			if a != name || remove {
				return errors.New(d.String())
			}
		}
		for _, x := range c.Removed {
			if x != name || !remove {
				return errors.New(d.String())
			}
		}
		for k := range c.Props {
			if k != name || remove {
				return errors.New(d.String())
			}
		}
	}
	return nil
}

// sameEntity checks that n, the entity after the edit, composes what
// q.node did but for the change asked: every component the file gives it
// (its own, its mixins', its prefab's) with every property as before,
// but component q.name removed, or with q.props set over what it was
// (or over the defaults, if it had none).
func (q *saveReq) sameEntity(reg *registry.Registry, n *plan.Node) error {
	old := q.node
	if old.ID() != n.ID() || !slices.Equal(old.Class(), n.Class()) || old.Prefab() != n.Prefab() {
		return errors.New("its id, classes or prefab changed")
	}
	want, got := composed(old.Comps), composed(n.Comps)
	if q.remove {
		delete(want, q.name)
	} else {
		if want[q.name] == nil {
			want[q.name] = map[int]any{}
		}
		withProps(want[q.name], q.comp.Schema, q.props)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			return fmt.Errorf("it would get %s", name)
		}
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			return fmt.Errorf("it would lose %s", name)
		}
		sch := schemaOf(reg, name)
		if sch == nil {
			if fmt.Sprint(w) != fmt.Sprint(g) {
				return fmt.Errorf("%s would change", name)
			}
			continue
		}
		if err := sameValues(sch, w, g); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return nil
}

// composed returns the values of components nps by name and property.
func composed(nps []registry.NamedPatch) map[string]map[int]any {
	out := make(map[string]map[int]any, len(nps))
	for _, np := range nps {
		m := out[np.Name]
		if m == nil {
			m = map[int]any{}
			out[np.Name] = m
		}
		for _, pv := range np.Patch {
			m[pv.Index] = pv.Value
		}
	}
	return out
}

// schemaOf returns the schema of component name (or of the component an
// instance name "base__id" is of), or nil.
func schemaOf(reg *registry.Registry, name string) *registry.Schema {
	if c, ok := reg.Component(name); ok {
		return c.Schema
	}
	base, _, _ := strings.Cut(name, "__")
	if c, ok := reg.Component(base); ok {
		return c.Schema
	}
	return nil
}
