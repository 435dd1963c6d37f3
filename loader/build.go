package loader

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Scene is a loaded scene: the [Plan] it was built from and the map between
// its nodes and the World's entities, both ways. Hot reload, dumping and
// inspection use it.
type Scene struct {
	Plan     *Plan
	Registry *registry.Registry
	World    *ecs.World
	// Entities maps each node of the plan to its entity.
	Entities map[*Node]ecs.Entity
	// Nodes maps each entity the scene made to its node.
	Nodes map[ecs.Entity]*Node
	// Roots are the entities of the plan's top-level nodes, in order.
	Roots []ecs.Entity
}

// Options configure loading.
type Options struct {
	// Limits bound what the readers accept; zero fields take defaults.
	Limits Limits
	// Context, if not nil, interrupts a long load or reload when it is
	// done (Ctrl-C): it is checked before each file is read, every
	// 1,024 entities read, every 4,096 entities compiled (prefabs'
	// instances expanded) and every 256 entities built. An interrupted
	// load leaves no entity behind and returns an error that matches the
	// context's error (context.Canceled) with errors.Is.
	Context context.Context
}

// ctx returns the options' context, or the background context.
func (o *Options) ctx() context.Context {
	if o.Context == nil {
		return context.Background()
	}
	return o.Context
}

// interrupted wraps the context's error once it is done.
func interrupted(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("loader: interrupted: %w", err)
	}
	return nil
}

// Load reads the scene file name from fsys (with its includes), validates
// it against reg and builds it into reg's World. On any error the World is
// untouched and the error is an [ErrorList] of "file:line:col: message".
//
// Files are read bounded by [Limits].MaxBytes and must be regular files by
// fsys's Stat. fsys decides where links lead: os.DirFS follows them out
// of its directory; [LoadFile] does not let includes out.
func Load(reg *registry.Registry, fsys fs.FS, name string, opt Options) (*Scene, error) {
	ctx := opt.ctx()
	lim := opt.Limits.withDefaults()
	doc, err := readFileContext(ctx, guardFS(ctx, fsys, lim.MaxBytes), name, opt.Limits)
	if err := interrupted(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, alsoCompile(ctx, doc, reg, err)
	}
	plan, err := CompileContext(ctx, doc, reg)
	if err != nil {
		return nil, err
	}
	return BuildContext(ctx, plan, reg)
}

// LoadFile is [Load] for a file on the operating system's file system: the
// file's directory is the root includes may not escape. The file itself
// may be a symbolic link; the files it includes may be links too, as long
// as they lead to a file under the root.
func LoadFile(reg *registry.Registry, file string, opt Options) (*Scene, error) {
	plan, err := CheckFile(reg, file, opt)
	if err != nil {
		return nil, err
	}
	s, err := BuildContext(opt.ctx(), plan, reg)
	if err != nil {
		// The positions of what only building finds (an impossible
		// schedule, say) name files as CheckFile's do.
		dir, _ := filepath.Split(filepath.Clean(file))
		if dir == "" {
			dir = "."
		}
		return nil, withDir(err, dir)
	}
	return s, nil
}

// CheckFile reads and validates the scene file (with its includes) against
// reg without building anything: the [Plan] a load would build. Error
// positions name files by their path as given (file's directory joined to
// the names inside it).
func CheckFile(reg *registry.Registry, file string, opt Options) (*Plan, error) {
	plan, _, err := checkFile(reg, file, opt, nil)
	return plan, err
}

// checkFile is CheckFile taking the bytes of files from given where they
// are there. It returns the scene's file system: what was read and
// asked for.
func checkFile(reg *registry.Registry, file string, opt Options, given Snapshot) (*Plan, *sceneFS, error) {
	ctx := opt.ctx()
	lim := opt.Limits.withDefaults()
	dir, base := filepath.Split(filepath.Clean(file))
	if dir == "" {
		dir = "."
	}
	sfs := newSceneFS(ctx, dir, base, lim.MaxBytes, given)
	doc, err := readFileContext(ctx, sfs, base, opt.Limits)
	if err := interrupted(ctx); err != nil {
		return nil, sfs, err
	}
	if err != nil {
		return nil, sfs, withDir(alsoCompile(ctx, doc, reg, err), dir)
	}
	plan, err := CompileContext(ctx, doc, reg)
	if err != nil {
		return nil, sfs, withDir(err, dir)
	}
	if err := interrupted(ctx); err != nil {
		return nil, sfs, err
	}
	return plan, sfs, nil
}

// alsoCompile adds the compile errors of a document that was read with
// errors (duplicate ids, say) but is whole enough to check, so that every
// problem is reported at once.
func alsoCompile(ctx context.Context, doc *Document, reg *registry.Registry, readErr error) error {
	list, ok := readErr.(ErrorList)
	if !ok || doc == nil {
		return readErr
	}
	_, err := CompileContext(ctx, doc, reg)
	more, ok := err.(ErrorList)
	if !ok {
		return readErr
	}
	seen := map[string]bool{}
	for _, e := range list {
		seen[e.Error()] = true
	}
	for _, e := range more {
		if !seen[e.Error()] {
			list = append(list, e)
		}
	}
	list.Sort()
	return list
}

// withDir puts dir in front of the file names of an ErrorList's positions.
func withDir(err error, dir string) error {
	list, ok := err.(ErrorList)
	if !ok || dir == "." {
		return err
	}
	for _, e := range list {
		if e.Pos.File != "" {
			e.Pos.File = filepath.Join(dir, filepath.FromSlash(e.Pos.File))
		}
	}
	return list
}

// LoadBytes loads a scene from memory; name gives its format (by
// extension) and the file name in messages. Includes are not allowed.
func LoadBytes(reg *registry.Registry, name string, data []byte, opt Options) (*Scene, error) {
	ctx := opt.ctx()
	doc, err := readContext(ctx, path.Base(name), data, opt.Limits)
	if err := interrupted(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, alsoCompile(ctx, doc, reg, err)
	}
	if len(doc.Includes) > 0 {
		return nil, ErrorList{{Pos: doc.Includes[0].Pos, Msg: "include is not available for a scene read from memory"}}
	}
	plan, err := CompileContext(ctx, doc, reg)
	if err != nil {
		return nil, err
	}
	return BuildContext(ctx, plan, reg)
}

// Build creates the plan's declared components, mixins, system settings
// and entities in reg and its World. What a [Plan] cannot know, because it
// depends on what reg and the World already hold, is checked first,
// before anything is changed: a declaration that clashes with a
// component already in reg (say, declared by another scene with another
// schema), and an entity id already used in the World. Then nothing can
// fail on account of the document.
func Build(plan *Plan, reg *registry.Registry) (*Scene, error) {
	return BuildContext(context.Background(), plan, reg)
}

// buildCheckEvery is how many entities Build creates between two looks
// at its context.
const buildCheckEvery = 256

// BuildContext is [Build], interrupted when ctx is done: it looks at ctx
// every few hundred entities, and an interrupted build destroys the
// entities it made and returns an error matching ctx.Err() with
// errors.Is. (Definitions already applied, such as declared components,
// stay, as on any other error while building.)
//
// The registry's context is ctx while building, so spawners that run
// as entities are made stop with it too; errors spawners report while the
// scene is built (a limit reached, see [registry.Limits]) fail the build.
func BuildContext(ctx context.Context, plan *Plan, reg *registry.Registry) (*Scene, error) {
	if err := interrupted(ctx); err != nil {
		return nil, err
	}
	if err := checkAgainst(plan, reg); err != nil {
		return nil, err
	}
	s := &Scene{Plan: plan, Registry: reg, World: reg.World(),
		Entities: make(map[*Node]ecs.Entity, plan.Count), Nodes: make(map[ecs.Entity]*Node, plan.Count)}
	if err := applySchedule(reg, nil, plan.Schedule); err != nil {
		return nil, err
	}
	if err := applyDefinitions(plan, reg); err != nil {
		return nil, err
	}
	for _, sp := range plan.Systems {
		if err := reg.ConfigureSystemPatch(sp.Name, sp.Patch, registry.Merge); err != nil {
			return nil, fmt.Errorf("%v: %v", sp.Src.Pos, err)
		}
	}
	defer reg.SetContext(reg.SetContext(ctx))
	var errs ErrorList
	b := &builder{ctx: ctx, left: buildCheckEvery}
	for _, n := range plan.Roots {
		if b.next() {
			break
		}
		s.Roots = append(s.Roots, s.create(n, ecs.Entity{}, -1, &errs, b))
	}
	if err := reg.TakeErrors(); err != nil && !b.stopped {
		errs = append(errs, spawnErrors(err, s.spawnerPos)...)
	}
	if len(errs) > 0 || b.stopped {
		for _, e := range s.Roots {
			_ = s.World.Destroy(e)
		}
		if b.stopped {
			return nil, interrupted(ctx)
		}
		return nil, errs
	}
	if plan.owner == nil {
		plan.owner = s
	}
	for _, e := range s.Roots {
		reg.EmitLoaded(e) // A-Frame's loaded: the scene is built
	}
	return s, nil
}

// spawnErrors turns the errors spawners reported while a scene was built
// into load errors, one per kind of failure: a spawner that spawns itself
// fails once per spawned copy, so spawner errors (*registry.SpawnError)
// whose own error says the same are reported once, with a count of the
// others. Other errors are reported as they are. at, if not nil, gives
// the position of a spawner's entity in the scene file.
func spawnErrors(err error, at func(ecs.Entity) Pos) ErrorList {
	all := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	}
	var out ErrorList
	seen := map[string]int{} // a spawner's own error -> index in out
	more := map[int]int{}
	for _, e := range all {
		var se *registry.SpawnError
		if errors.As(e, &se) {
			key := se.Err.Error()
			if k, ok := seen[key]; ok {
				more[k]++
				continue
			}
			seen[key] = len(out)
			if at != nil {
				out = append(out, &Error{Pos: at(se.Entity), Msg: e.Error()})
				continue
			}
		}
		out = append(out, &Error{Msg: e.Error()})
	}
	for k, n := range more {
		out[k].Msg += fmt.Sprintf(" (and %d more spawners like it)", n)
	}
	return out
}

// spawnerPos is the position in the scene file of the entity e, or of
// its nearest ancestor the scene wrote (e spawned at run time); the zero
// Pos if none.
func (s *Scene) spawnerPos(e ecs.Entity) Pos {
	for e != (ecs.Entity{}) {
		if n := s.Nodes[e]; n != nil && n.Src != nil {
			return n.Src.Pos
		}
		p, ok := s.World.Parent(e)
		if !ok {
			break
		}
		e = p
	}
	return Pos{}
}

// builder counts the entities a build makes between looks at its
// context.
type builder struct {
	ctx     context.Context
	left    int
	stopped bool
}

// next is called before each entity; it reports whether to stop.
func (b *builder) next() bool {
	if b == nil {
		return false
	}
	if b.left--; b.left <= 0 {
		b.left = buildCheckEvery
		b.stopped = b.ctx.Err() != nil
	}
	return b.stopped
}

// checkAgainst reports every declaration of plan that clashes with a
// component of reg and every entity id already used in reg's World.
func checkAgainst(plan *Plan, reg *registry.Registry) error {
	var errs ErrorList
	for _, d := range plan.Decls {
		if c, ok := reg.Component(d.Decl.Name); ok && !(c.Declared && sameSchema(c.Schema, d.Schema)) {
			errs = append(errs, &Error{Pos: d.Decl.Pos, Msg: fmt.Sprintf("component %q is already registered with another schema", d.Decl.Name)})
		}
	}
	stack := append([]*Node(nil), plan.Roots...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], n.Children...)
		if n.ID() == "" {
			continue
		}
		if _, ok := reg.EntityByID(n.ID()); ok {
			errs = append(errs, &Error{Pos: n.idPos(), Msg: fmt.Sprintf("entity id %q is already used in the World", n.ID())})
		}
	}
	errs.Sort()
	return errs.Err()
}

// applyDefinitions registers declared components and tags and defines
// mixins in the registry.
func applyDefinitions(plan *Plan, reg *registry.Registry) error {
	for _, d := range plan.Decls {
		if c, ok := reg.Component(d.Decl.Name); ok {
			if c.Declared && sameSchema(c.Schema, d.Schema) {
				continue
			}
			return ErrorList{{Pos: d.Decl.Pos, Msg: fmt.Sprintf("component %q is already registered with another schema", d.Decl.Name)}}
		}
		if _, err := reg.Declare(d.Decl.Name, d.Schema); err != nil {
			return ErrorList{{Pos: d.Decl.Pos, Msg: err.Error()}}
		}
	}
	sort.Strings(plan.Tags)
	for _, t := range plan.Tags {
		if _, ok := reg.Component(t); ok {
			continue
		}
		s, _ := registry.NewSchema(nil, reg.Types())
		if _, err := reg.Declare(t, s); err != nil {
			return fmt.Errorf("tag %q: %v", t, err)
		}
	}
	for _, m := range plan.Mixins {
		reg.DefineMixin(m.Mixin)
	}
	return definePrefabs(plan, reg)
}

// definePrefabs defines the plan's prefabs in reg, in a stable order.
func definePrefabs(plan *Plan, reg *registry.Registry) error {
	names := make([]string, 0, len(plan.Prefabs))
	for n := range plan.Prefabs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := reg.DefinePrefab(plan.Prefabs[n].Prefab); err != nil {
			return ErrorList{{Pos: plan.Prefabs[n].Src.Pos, Msg: err.Error()}}
		}
	}
	return nil
}

// idPos returns where the id of n is written: at its own id, or for a
// part, at the id of its instance.
func (n *Node) idPos() Pos {
	return instanceRoot(n).Src.IDPos
}

// sameSchema reports whether two schemas describe the same properties.
func sameSchema(a, b *registry.Schema) bool {
	if len(a.Props) != len(b.Props) {
		return false
	}
	for i := range a.Props {
		pa, pb := &a.Props[i], &b.Props[i]
		if pa.Name != pb.Name || pa.Type != pb.Type || !pa.Type.Equal(pa.Default, pb.Default) ||
			fmt.Sprint(pa.OneOf) != fmt.Sprint(pb.OneOf) || !sameBound(pa.Min, pb.Min) || !sameBound(pa.Max, pb.Max) {
			return false
		}
	}
	return true
}

func sameBound(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// create makes the entity of n and its subtree under parent, at index
// among parent's children (-1: at the end).
// A build b (nil: none) that is interrupted stops making children.
func (s *Scene) create(n *Node, parent ecs.Entity, index int, errs *ErrorList, b *builder) ecs.Entity {
	e := s.newEntity(n, parent, index, errs)
	for _, ch := range n.Children {
		if b.next() {
			break
		}
		s.create(ch, e, -1, errs, b)
	}
	return e
}

// newEntity makes the entity of n alone (not its children) under parent,
// at index among parent's children (-1: at the end): id, classes and
// components composed with the node's mixins.
func (s *Scene) newEntity(n *Node, parent ecs.Entity, index int, errs *ErrorList) ecs.Entity {
	w, reg := s.World, s.Registry
	e := w.NewEntity()
	if !parent.IsZero() {
		_ = w.InsertChild(parent, e, index)
	}
	s.Entities[n] = e
	s.Nodes[e] = n
	if s.Plan.owner == nil {
		n.ent = e
	}
	if n.ID() != "" {
		if err := reg.SetEntityID(e, n.ID()); err != nil {
			*errs = append(*errs, &Error{Pos: n.idPos(), Msg: err.Error()})
		}
	}
	if len(n.Class()) > 0 {
		reg.SetClasses(e, n.Class())
	}
	if n.Key() != "" {
		reg.SetPartKey(e, n.Key())
	}
	// Privileged: an instance's components hold its read-only prefab
	// marker, which the scene compiles to (a scene cannot write one).
	if err := reg.Privileged().SetMany(e, n.Comps); err != nil {
		*errs = append(*errs, &Error{Pos: n.Src.Pos, Msg: err.Error()})
	}
	return e
}

// Entity returns the entity made for the node whose id is id.
func (s *Scene) Entity(id string) (ecs.Entity, bool) {
	e, ok := s.Registry.EntityByID(id)
	if !ok {
		return ecs.Entity{}, false
	}
	if _, mine := s.Nodes[e]; !mine {
		return ecs.Entity{}, false
	}
	return e, true
}
