package live

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"sync"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Scene is a loaded scene: the [plan.Plan] it was built from and the entities
// it made of the plan's nodes, by node Index, with the way back from an
// entity to its node ([Scene.EntityOf], [Scene.NodeOf]). Hot reload,
// dumping and inspection use it.
type Scene struct {
	Plan     *plan.Plan
	Registry *registry.Registry
	World    *ecs.World
	// Roots are the entities of the plan's top-level nodes, in order.
	Roots []ecs.Entity

	ents  []ecs.Entity // by node Index; zero for a node without an entity
	index []int32      // by an entity's ecs index: its node's Index + 1 (0: none), valid if ents says so
}

// EntityOf returns the entity made of n, a node of the scene's Plan; false
// if n has none (it is not the Plan's, or was not made).
func (s *Scene) EntityOf(n *plan.Node) (ecs.Entity, bool) {
	if n == nil || n.Index < 0 || n.Index >= len(s.ents) || s.Plan.Nodes[n.Index] != n {
		return ecs.Entity{}, false
	}
	e := s.ents[n.Index]
	return e, !e.IsZero()
}

// NodeOf returns the node of the scene's Plan that e was made of; false
// for an entity the scene did not make (spawned, or made by a program).
func (s *Scene) NodeOf(e ecs.Entity) (*plan.Node, bool) {
	i, ok := s.indexOf(e)
	if !ok {
		return nil, false
	}
	return s.Plan.Nodes[i], true
}

// indexOf returns the Index of the node e was made of.
func (s *Scene) indexOf(e ecs.Entity) (int, bool) {
	x := int(e.Index())
	if x >= len(s.index) || s.index[x] == 0 {
		return 0, false
	}
	i := int(s.index[x]) - 1
	return i, i < len(s.ents) && s.ents[i] == e
}

// setEntity records e as the entity of the node with Index i.
func (s *Scene) setEntity(i int, e ecs.Entity) {
	s.ents[i] = e
	x := int(e.Index())
	if x >= len(s.index) {
		s.index = append(s.index, make([]int32, x+1-len(s.index)+len(s.index)/4)...)
	}
	s.index[x] = int32(i + 1)
}

// Len returns the number of entities the scene made that are alive.
func (s *Scene) Len() int {
	n := 0
	for _, e := range s.ents {
		if !e.IsZero() && s.World.Alive(e) {
			n++
		}
	}
	return n
}

// Options configure loading.
type Options struct {
	// Limits bound what the readers accept; zero fields take defaults.
	Limits scenefile.Limits
	// Context, if not nil, interrupts a long load or reload when it is
	// done (Ctrl-C): it is checked before each file is read, every
	// 1,024 entities read, every 4,096 entities compiled (prefabs'
	// instances expanded) and every 256 entities built. An interrupted
	// load leaves no entity behind and returns an error that matches the
	// context's error (context.Canceled) with errors.Is.
	Context context.Context
	// Builtins are the names of the built-in components and systems the
	// program registers (components.Names): a scene that uses some that
	// the registry lacks is refused with one error saying that the
	// program must register them, rather than one unknown name per use.
	// Nil skips that check.
	Builtins []string
	// Plans, if not nil, keeps the plans Load and LoadBytes compile, by
	// the bytes of the files read (scenefile.Document.Digest), and gives
	// them to later loads of the same bytes: many Worlds of one scene
	// (rooms) share one plan, which holds no runtime state, and skip
	// compiling it. Share a PlanCache only among Registries that register
	// the same components.
	Plans *PlanCache
}

// PlanCache keeps compiled plans for loads of the same files (see
// Options.Plans). It is safe for concurrent use.
type PlanCache struct {
	mu    sync.Mutex
	plans map[[32]byte]*plan.Plan
	hits  int
}

// planCacheSize bounds the plans a PlanCache keeps: past it, one is
// dropped for each added.
const planCacheSize = 64

// NewPlanCache returns an empty PlanCache.
func NewPlanCache() *PlanCache { return &PlanCache{plans: map[[32]byte]*plan.Plan{}} }

// Hits returns how many loads took a plan from the cache.
func (c *PlanCache) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// compile returns doc's plan against reg: from c if a load of the same
// bytes compiled it, else compiled (and kept, if c is not nil).
func (c *PlanCache) compile(doc *scenefile.Document, reg *registry.Registry, opt plan.Options) (*plan.Plan, error) {
	if c == nil {
		return plan.Compile(doc, reg, opt)
	}
	key, ok := doc.Digest()
	if !ok {
		return plan.Compile(doc, reg, opt)
	}
	c.mu.Lock()
	pl := c.plans[key]
	if pl != nil {
		c.hits++
	}
	c.mu.Unlock()
	if pl != nil {
		return pl, nil
	}
	pl, err := plan.Compile(doc, reg, opt)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.plans) >= planCacheSize {
		for k := range c.plans {
			delete(c.plans, k)
			break
		}
	}
	c.plans[key] = pl
	return pl, nil
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
// untouched and the error is an [scenefile.ErrorList] of "file:line:col: message".
//
// Files are read bounded by [scenefile.Limits].MaxBytes and must be regular files by
// fsys's Stat. fsys decides where links lead: os.DirFS follows them out
// of its directory; [LoadFile] does not let includes out.
func Load(reg *registry.Registry, fsys fs.FS, name string, opt Options) (*Scene, error) {
	ctx := opt.ctx()
	lim := opt.Limits.WithDefaults()
	doc, err := scenefile.ReadFileContext(ctx, scenefile.GuardFS(ctx, fsys, lim.MaxBytes), name, opt.Limits)
	if err := interrupted(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, alsoCompile(ctx, doc, reg, opt.Builtins, err)
	}
	pl, err := opt.Plans.compile(doc, reg, plan.Options{Context: ctx, Builtins: opt.Builtins})
	if err != nil {
		return nil, err
	}
	return BuildContext(ctx, pl, reg)
}

// LoadFile is [Load] for a file on the operating system's file system: the
// file's directory is the root includes may not escape. The file itself
// may be a symbolic link; the files it includes may be links too, as long
// as they lead to a file under the root.
func LoadFile(reg *registry.Registry, file string, opt Options) (*Scene, error) {
	pl, err := CheckFile(reg, file, opt)
	if err != nil {
		return nil, err
	}
	s, err := BuildContext(opt.ctx(), pl, reg)
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
// reg without building anything: the [plan.Plan] a load would build. Error
// positions name files by their path as given (file's directory joined to
// the names inside it).
func CheckFile(reg *registry.Registry, file string, opt Options) (*plan.Plan, error) {
	pl, _, err := checkFile(reg, file, opt, nil)
	return pl, err
}

// checkFile is CheckFile taking the bytes of files from given where they
// are there. It returns the scene's file system: what was read and
// asked for.
func checkFile(reg *registry.Registry, file string, opt Options, given scenefile.Snapshot) (*plan.Plan, *scenefile.SceneFS, error) {
	ctx := opt.ctx()
	lim := opt.Limits.WithDefaults()
	dir, base := filepath.Split(filepath.Clean(file))
	if dir == "" {
		dir = "."
	}
	sfs := scenefile.NewSceneFS(ctx, dir, base, lim.MaxBytes, given)
	doc, err := scenefile.ReadFileContext(ctx, sfs, base, opt.Limits)
	if err := interrupted(ctx); err != nil {
		return nil, sfs, err
	}
	if err != nil {
		return nil, sfs, withDir(alsoCompile(ctx, doc, reg, opt.Builtins, err), dir)
	}
	pl, err := plan.Compile(doc, reg, plan.Options{Context: ctx, Builtins: opt.Builtins})
	if err != nil {
		return nil, sfs, withDir(err, dir)
	}
	if err := interrupted(ctx); err != nil {
		return nil, sfs, err
	}
	return pl, sfs, nil
}

// alsoCompile adds the compile errors of a document that was read with
// errors (duplicate ids, say) but is whole enough to check, so that every
// problem is reported at once.
func alsoCompile(ctx context.Context, doc *scenefile.Document, reg *registry.Registry, builtins []string, readErr error) error {
	list, ok := readErr.(scenefile.ErrorList)
	if !ok || doc == nil {
		return readErr
	}
	_, err := plan.Compile(doc, reg, plan.Options{Context: ctx, Builtins: builtins})
	more, ok := err.(scenefile.ErrorList)
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
	list, ok := err.(scenefile.ErrorList)
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
	doc, err := scenefile.ReadContext(ctx, path.Base(name), data, opt.Limits)
	if err := interrupted(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, alsoCompile(ctx, doc, reg, opt.Builtins, err)
	}
	if len(doc.Includes) > 0 {
		return nil, scenefile.ErrorList{{Pos: doc.Includes[0].Pos, Msg: "include is not available for a scene read from memory"}}
	}
	pl, err := opt.Plans.compile(doc, reg, plan.Options{Context: ctx, Builtins: opt.Builtins})
	if err != nil {
		return nil, err
	}
	return BuildContext(ctx, pl, reg)
}

// Build creates the plan's declared components, mixins, system settings
// and entities in reg and its World. What a [plan.Plan] cannot know, because it
// depends on what reg and the World already hold, is checked first,
// before anything is changed: a declaration that clashes with a
// component already in reg (say, declared by another scene with another
// schema), and an entity id already used in the World. Then nothing can
// fail on account of the document.
func Build(pl *plan.Plan, reg *registry.Registry) (*Scene, error) {
	return BuildContext(context.Background(), pl, reg)
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
func BuildContext(ctx context.Context, pl *plan.Plan, reg *registry.Registry) (*Scene, error) {
	if err := interrupted(ctx); err != nil {
		return nil, err
	}
	if err := checkAgainst(pl, reg); err != nil {
		return nil, err
	}
	s := &Scene{Plan: pl, Registry: reg, World: reg.World(), ents: make([]ecs.Entity, len(pl.Nodes))}
	if err := plan.ApplySchedule(reg, nil, pl.Schedule); err != nil {
		return nil, err
	}
	if err := applyDefinitions(pl, reg); err != nil {
		return nil, err
	}
	for _, sp := range pl.Systems {
		sys, ok := reg.System(sp.Name)
		if !ok {
			return nil, fmt.Errorf("%v: unknown system %q", sp.Src.Pos(), sp.Name)
		}
		if err := sys.Configure(sp.Patch, registry.Merge); err != nil {
			return nil, fmt.Errorf("%v: %v", sp.Src.Pos(), err)
		}
	}
	defer reg.SetContext(reg.SetContext(ctx))
	reserveFor(pl, reg)
	var errs scenefile.ErrorList
	b := &builder{ctx: ctx, left: buildCheckEvery}
	s.Roots = make([]ecs.Entity, 0, len(pl.Roots))
	for _, n := range pl.Roots {
		if b.next() {
			break
		}
		s.Roots = append(s.Roots, s.create(n, ecs.Entity{}, &errs, b))
	}
	if err := reg.TakeErrors(); err != nil && !b.stopped {
		errs = append(errs, spawnErrors(err, s.spawnerPos)...)
	}
	if len(errs) == 0 && !b.stopped {
		// Every entity exists: references, forward ones too, resolve.
		errs = append(errs, s.resolveRefs(pl.Nodes)...)
		errs.Sort()
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
	for _, e := range s.Roots {
		reg.Events().EmitLoaded(e) // A-Frame's loaded: the scene is built
	}
	return s, nil
}

// reserveAt is the number of entities of one set of components from
// which the builder makes room for them first.
const reserveAt = 256

// reserveFor makes room in the World for the plan's entities, by the set
// of components each will have (its own and those they depend on), for
// each set that many share: the World then grows each table once, not
// by doubling as it fills (half the storage a big scene allocates while
// it loads).
func reserveFor(pl *plan.Plan, reg *registry.Registry) {
	if len(pl.Nodes) < reserveAt {
		return
	}

	type group struct {
		n      int
		sample *plan.Node
	}
	groups := map[uint64]*group{}
	seed := maphash.MakeSeed()
	ids := 0
	for _, n := range pl.Nodes {
		if n.ID() != "" {
			ids++
		}
		// The sum of the names' hashes: the same for any order.
		var k uint64
		for _, np := range n.Comps {
			k += maphash.String(seed, np.Name)
		}
		if g := groups[k]; g != nil {
			g.n++
		} else {
			groups[k] = &group{1, n}
		}
	}
	reg.Privileged().ReserveIDs(ids)
	for _, g := range groups {
		if g.n < reserveAt {
			continue
		}
		if ids, ok := componentIDs(reg, g.sample.Comps); ok {
			reg.World().Reserve(g.n, ids...)
		}
	}
}

// componentIDs returns the ids of the components nps names and of those
// they depend on, however deep; false if one is unknown.
func componentIDs(reg *registry.Registry, nps []registry.NamedPatch) ([]ecs.ID, bool) {
	var ids []ecs.ID
	seen := map[string]bool{}
	var add func(name string) bool
	add = func(name string) bool {
		if seen[name] {
			return true
		}
		seen[name] = true
		c, id, err := reg.Lookup(name)
		if err != nil {
			return false
		}
		ids = append(ids, id)
		for _, d := range c.Dependencies {
			if !add(d) {
				return false
			}
		}
		return true
	}
	for _, np := range nps {
		if !add(np.Name) {
			return nil, false
		}
	}
	return ids, true
}

// spawnErrors turns the errors spawners reported while a scene was built
// into load errors, one per kind of failure: a spawner that spawns itself
// fails once per spawned copy, so spawner errors (*registry.SpawnError)
// whose own error says the same are reported once, with a count of the
// others. Other errors are reported as they are. at, if not nil, gives
// the position of a spawner's entity in the scene file.
func spawnErrors(err error, at func(ecs.Entity) scenefile.Pos) scenefile.ErrorList {
	all := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	}
	var out scenefile.ErrorList
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
				out = append(out, &scenefile.Error{Pos: at(se.Entity), Msg: e.Error()})
				continue
			}
		}
		out = append(out, &scenefile.Error{Msg: e.Error()})
	}
	for k, n := range more {
		out[k].Msg += fmt.Sprintf(" (and %d more spawners like it)", n)
	}
	return out
}

// spawnerPos is the position in the scene file of the entity e, or of
// its nearest ancestor the scene wrote (e spawned at run time); the zero
// Pos if none.
func (s *Scene) spawnerPos(e ecs.Entity) scenefile.Pos {
	for e != (ecs.Entity{}) {
		if n, ok := s.NodeOf(e); ok && n.Src != nil {
			return n.Src.Pos
		}
		p, ok := s.World.Parent(e)
		if !ok {
			break
		}
		e = p
	}
	return scenefile.Pos{}
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
func checkAgainst(pl *plan.Plan, reg *registry.Registry) error {
	var errs scenefile.ErrorList
	for _, d := range pl.Decls {
		if c, ok := reg.Component(d.Decl.Name); ok && !(c.Declared && plan.SameSchema(c.Schema, d.Schema)) && !(d.Shadows && !c.Declared) {
			errs = append(errs, &scenefile.Error{Pos: d.Decl.Pos, Msg: fmt.Sprintf("component %q is already registered with another schema", d.Decl.Name)})
		}
	}
	stack := append([]*plan.Node(nil), pl.Roots...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], n.Children...)
		if n.ID() == "" {
			continue
		}
		if _, ok := reg.EntityByID(n.ID()); ok {
			errs = append(errs, &scenefile.Error{Pos: n.IDPos(), Msg: fmt.Sprintf("entity id %q is already used in the World", n.ID())})
		}
	}
	errs.Sort()
	return errs.Err()
}

// applyDefinitions registers declared components and tags and defines
// mixins in the registry.
func applyDefinitions(pl *plan.Plan, reg *registry.Registry) error {
	for _, d := range pl.Decls {
		if c, ok := reg.Component(d.Decl.Name); ok {
			if c.Declared && plan.SameSchema(c.Schema, d.Schema) {
				continue
			}
			if d.Shadows && !c.Declared {
				if _, err := reg.Privileged().Shadow(d.Decl.Name, d.Schema); err != nil {
					return scenefile.ErrorList{{Pos: d.Decl.Pos, Msg: err.Error()}}
				}
				continue
			}
			return scenefile.ErrorList{{Pos: d.Decl.Pos, Msg: fmt.Sprintf("component %q is already registered with another schema", d.Decl.Name)}}
		}
		if _, err := reg.Declare(d.Decl.Name, d.Schema); err != nil {
			return scenefile.ErrorList{{Pos: d.Decl.Pos, Msg: err.Error()}}
		}
	}
	for _, t := range pl.Tags {
		if _, ok := reg.Component(t); ok {
			continue
		}
		s, _ := schema.NewSchema(nil, reg.Types())
		if _, err := reg.Declare(t, s); err != nil {
			return fmt.Errorf("tag %q: %v", t, err)
		}
	}
	for _, m := range pl.Mixins {
		reg.Mixins().Define(m.Mixin)
	}
	return definePrefabs(pl, reg)
}

// definePrefabs defines the plan's prefabs in reg, in a stable order.
func definePrefabs(pl *plan.Plan, reg *registry.Registry) error {
	names := make([]string, 0, len(pl.Prefabs))
	for n := range pl.Prefabs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		// A copy: the registry records what it counts in it, and one
		// Plan may be built into several registries. The nodes are
		// shared, read-only.
		p := *pl.Prefabs[n].Prefab
		if err := reg.Prefabs().Define(&p); err != nil {
			return scenefile.ErrorList{{Pos: pl.Prefabs[n].Src.Pos, Msg: err.Error()}}
		}
	}
	return nil
}

// create makes the entity of n and its subtree under parent.
// A build b (nil: none) that is interrupted stops making children.
func (s *Scene) create(n *plan.Node, parent ecs.Entity, errs *scenefile.ErrorList, b *builder) ecs.Entity {
	e := s.newEntity(n, parent, errs)
	if e.IsZero() {
		return e
	}
	for _, ch := range n.Children {
		if b.next() {
			break
		}
		s.create(ch, e, errs, b)
	}
	return e
}

// newEntity makes the entity of n alone (not its children) under parent:
// id, classes, part key and components composed with the node's mixins
// (registry.Create). On an error it makes nothing and returns the zero
// Entity.
func (s *Scene) newEntity(n *plan.Node, parent ecs.Entity, errs *scenefile.ErrorList) ecs.Entity {
	// Privileged: an instance's components hold its read-only prefab
	// marker, which the scene compiles to (a scene cannot write one).
	e, err := s.Registry.Privileged().Create(parent, registry.CreateSpec{
		ID: n.ID(), Classes: n.Class(), PartKey: n.Key(), Components: n.Comps})
	if err != nil {
		at := n.Src.Pos
		if id := n.ID(); id != "" {
			if _, used := s.Registry.EntityByID(id); used {
				at = n.IDPos()
			}
		}
		*errs = append(*errs, &scenefile.Error{Pos: at, Msg: err.Error()})
		return ecs.Entity{}
	}
	s.setEntity(n.Index, e)
	return e
}

// Entity returns the entity made for the node whose id is id.
func (s *Scene) Entity(id string) (ecs.Entity, bool) {
	e, ok := s.Registry.EntityByID(id)
	if !ok {
		return ecs.Entity{}, false
	}
	if _, mine := s.indexOf(e); !mine {
		return ecs.Entity{}, false
	}
	return e, true
}
