package scenefile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Limits bound the resources a read may use, so that hostile or broken
// input is refused with an error instead of exhausting memory, stack or
// time. A zero field means the value from [DefaultLimits].
type Limits struct {
	// MaxBytes bounds the size of one file and of all files of a scene
	// together (root plus includes).
	MaxBytes int64
	// MaxDepth bounds how deeply entities nest (a top-level entity has
	// depth 1), through prefabs too, and, with a small allowance, the
	// nesting of XML elements.
	MaxDepth int
	// MaxEntities bounds the number of entities in the scene, children,
	// includes and the entities of prefabs' instances counted, and the
	// entities of one instance of any prefab, used or not.
	MaxEntities int
	// MaxIncludes bounds the number of files included, transitively.
	MaxIncludes int
	// MaxErrors bounds the number of errors reported; reading stops after.
	MaxErrors int
	// MaxNameBytes bounds the bytes of the names (ids and paths) that
	// expanding prefabs gives the parts of instances ("f2/gun-left/muzzle"):
	// nesting repeats long names without costing text.
	MaxNameBytes int64

	usedEntities int // entities already read by earlier files of a scene
}

// DefaultLimits returns the limits used for zero fields: 64 MiB, entity
// depth 256, 1,000,000 entities, 1,000 includes, 1,000 errors and 64 MiB
// of names.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:     64 << 20,
		MaxDepth:     256,
		MaxEntities:  1_000_000,
		MaxIncludes:  1000,
		MaxErrors:    1000,
		MaxNameBytes: 64 << 20,
	}
}

// WithDefaults returns l with each zero field set from [DefaultLimits].
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxEntities <= 0 {
		l.MaxEntities = d.MaxEntities
	}
	if l.MaxIncludes <= 0 {
		l.MaxIncludes = d.MaxIncludes
	}
	if l.MaxErrors <= 0 {
		l.MaxErrors = d.MaxErrors
	}
	if l.MaxNameBytes <= 0 {
		l.MaxNameBytes = d.MaxNameBytes
	}
	return l
}

// Format is a scene file format.
type Format int

const (
	// FormatUnknown is returned for an unrecognised file extension.
	FormatUnknown Format = iota
	// FormatYAML is chosen by the extensions .yaml and .yml.
	FormatYAML
	// FormatXML is chosen by the extension .xml.
	FormatXML
	// FormatJSON is chosen by the extension .json: the dump format (see
	// json.go).
	FormatJSON
)

// FormatOf returns the format of a file name by its extension (case-insensitive).
func FormatOf(file string) Format {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(file, "\\", "/"))) {
	case ".yaml", ".yml":
		return FormatYAML
	case ".xml":
		return FormatXML
	case ".json":
		return FormatJSON
	}
	return FormatUnknown
}

// Interrupted returns the error of a read, compile or build interrupted
// by ctx ("loader: interrupted: context canceled", matching ctx.Err()
// with errors.Is), or nil while ctx is not done.
func Interrupted(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("loader: interrupted: %w", err)
	}
	return nil
}

// Read reads one scene document, choosing YAML, XML or JSON by the
// extension of file (.yaml, .yml, .xml or .json). Includes are recorded in Document.Includes
// but not resolved; use [ReadFile] for that.
func Read(file string, data []byte, lim Limits) (*Document, error) {
	return ReadContext(context.Background(), file, data, lim)
}

// ReadContext is [Read], interrupted when ctx is done (every few
// thousand entities the readers look at it): it returns an error
// matching ctx.Err() with errors.Is.
func ReadContext(ctx context.Context, file string, data []byte, lim Limits) (*Document, error) {
	if err := Interrupted(ctx); err != nil {
		return nil, err
	}
	lim = lim.WithDefaults()
	errs := &errorSink{max: lim.MaxErrors, ctx: ctx}
	doc := readOne(file, data, lim, errs)
	if errs.stopped {
		return nil, Interrupted(ctx)
	}
	if doc != nil {
		doc.lim = lim
		doc.read = [][]byte{data}
		checkUnique(doc, errs)
	}
	return finish(doc, errs)
}

// readOne dispatches to the reader for file's format.
func readOne(file string, data []byte, lim Limits, errs *errorSink) *Document {
	if int64(len(data)) > lim.MaxBytes {
		errs.add(Pos{File: file}, "file too large: %d bytes (limit %d)", len(data), lim.MaxBytes)
		return nil
	}
	switch FormatOf(file) {
	case FormatYAML:
		return readYAML(file, data, lim, errs)
	case FormatXML:
		return readXML(file, data, lim, errs)
	case FormatJSON:
		return readJSON(file, data, lim, errs)
	}
	errs.add(Pos{File: file}, "unknown scene format %q (want .yaml, .yml, .xml or .json)", path.Ext(file))
	return nil
}

func finish(doc *Document, errs *errorSink) (*Document, error) {
	if len(errs.list) > 0 {
		errs.list.Sort()
		return doc, errs.list
	}
	return doc, nil
}

// ReadFile reads the scene file name from fsys and resolves its includes:
// an include path is relative to the directory of the including file, may
// not leave the root of fsys, and may name a YAML, XML or JSON file. Included
// declarations, settings, mixins and entities are merged into the returned
// [Document], before the including file's own, in include order, depth first.
// A file included a second time (for example by two siblings) is merged
// only once; a file that includes itself, directly or through others, is an
// error naming the cycle. Entity ids, mixin ids, declarations and scene
// settings must be unique across all files.
//
// On error ReadFile returns an [ErrorList] with every problem found in every
// file, sorted by position, and possibly a partial Document.
func ReadFile(fsys fs.FS, name string, lim Limits) (*Document, error) {
	return ReadFileContext(context.Background(), fsys, name, lim)
}

// ReadFileContext is [ReadFile], interrupted when ctx is done: it is
// looked at before each file and every few thousand entities read.
func ReadFileContext(ctx context.Context, fsys fs.FS, name string, lim Limits) (*Document, error) {
	lim = lim.WithDefaults()
	l := &includer{
		fsys:   GuardFS(ctx, fsys, lim.MaxBytes), // bounded, regular files only
		lim:    lim,
		errs:   &errorSink{max: lim.MaxErrors, ctx: ctx},
		loaded: map[string]bool{},
	}
	if !fs.ValidPath(name) {
		l.errs.add(Pos{File: name}, "invalid file name %q", name)
		return finish(nil, l.errs)
	}
	doc := l.load(name, Pos{File: name})
	if l.errs.stopped {
		return nil, Interrupted(ctx)
	}
	if doc != nil {
		doc.Files = l.files
		doc.read = l.read
		doc.lim = lim
		checkUnique(doc, l.errs)
	}
	return finish(doc, l.errs)
}

// includer holds the state of one ReadFile call.
type includer struct {
	fsys     fs.FS
	lim      Limits
	errs     *errorSink
	loaded   map[string]bool // files loaded or being loaded
	stack    []string        // files being loaded, for cycle messages
	files    []string
	read     [][]byte // the bytes of files, as read
	bytes    int64    // bytes read so far
	includes int      // include directives followed so far
	entities int      // entities read so far
}

// load reads one file and, recursively, its includes. at is where the file
// was asked for (an include directive, or the root file).
func (l *includer) load(name string, at Pos) *Document {
	l.loaded[name] = true
	l.files = append(l.files, name)
	data, err := l.readFile(name, at)
	if err != nil {
		l.errs.add(at, "%v", err)
		return nil
	}
	l.read = append(l.read, data)
	lim := l.lim
	lim.usedEntities = l.entities
	doc := readOne(name, data, lim, l.errs)
	if doc == nil {
		return nil
	}
	l.entities += doc.nEntities
	if len(doc.Includes) == 0 || l.errs.full {
		return doc
	}

	l.stack = append(l.stack, name)
	defer func() { l.stack = l.stack[:len(l.stack)-1] }()
	var parts []*Document
	for _, inc := range doc.Includes {
		if l.errs.full {
			break
		}
		target, msg := resolveInclude(name, inc.Path)
		if msg != "" {
			l.errs.add(inc.Pos, "include %q: %s", inc.Path, msg)
			continue
		}
		inc.Resolved = target
		if i := indexOf(l.stack, target); i >= 0 {
			cycle := append(append([]string{}, l.stack[i:]...), target)
			l.errs.add(inc.Pos, "include cycle: %s", strings.Join(cycle, " -> "))
			continue
		}
		if l.loaded[target] {
			continue // already merged through another include
		}
		l.includes++
		if l.includes > l.lim.MaxIncludes {
			l.errs.add(inc.Pos, "too many includes (limit %d)", l.lim.MaxIncludes)
			break
		}
		if sub := l.load(target, inc.Pos); sub != nil {
			parts = append(parts, sub)
		}
	}
	merge(doc, parts)
	return doc
}

// readFile reads name within the byte budget.
func (l *includer) readFile(name string, at Pos) ([]byte, error) {
	left := l.lim.MaxBytes - l.bytes
	if info, err := fs.Stat(l.fsys, name); err != nil {
		return nil, cleanFSError(err)
	} else if info.IsDir() {
		return nil, fmt.Errorf("%s is a directory", name)
	} else if info.Size() > left {
		return nil, l.tooLarge(name, info.Size(), left)
	}
	data, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		return nil, cleanFSError(err)
	}
	if int64(len(data)) > left {
		return nil, l.tooLarge(name, int64(len(data)), left)
	}
	l.bytes += int64(len(data))
	return data, nil
}

// tooLarge is the error for a file of size bytes when only left bytes of
// the scene's budget remain. The root file's error is positioned at the
// file itself, so it does not name it again.
func (l *includer) tooLarge(name string, size, left int64) error {
	if l.bytes == 0 {
		return fmt.Errorf("file too large: %d bytes (limit %d)", size, l.lim.MaxBytes)
	}
	return fmt.Errorf("%s is too large: %d bytes, and only %d of the %d bytes allowed for all files of the scene are left", name, size, left, l.lim.MaxBytes)
}

func cleanFSError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot read %s: %v", pe.Path, pe.Err)
	}
	return err
}

// resolveInclude resolves an include path relative to the including file.
// It returns the slash-separated target or a message saying what is wrong.
func resolveInclude(from, inc string) (string, string) {
	switch {
	case inc == "":
		return "", "empty path"
	case strings.Contains(inc, "\\"):
		return "", "use / to separate path elements"
	case strings.HasPrefix(inc, "/"):
		return "", "absolute paths are not allowed"
	}
	target := path.Join(path.Dir(from), inc)
	if target == ".." || strings.HasPrefix(target, "../") || !fs.ValidPath(target) {
		return "", "path leaves the scene root"
	}
	if FormatOf(target) == FormatUnknown {
		return "", "unknown scene format (want .yaml, .yml, .xml or .json)"
	}
	return target, ""
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// merge puts the content of the included documents before doc's own.
func merge(doc *Document, parts []*Document) {
	if len(parts) == 0 {
		return
	}
	var scene []*ComponentSpec
	var decls []*Decl
	var mixins []*MixinSpec
	var prefabs []*PrefabSpec
	var ents []*EntitySpec
	var computed []*ComponentSpec
	for _, p := range append(parts, doc) {
		scene = append(scene, p.Systems...)
		decls = append(decls, p.Decls...)
		mixins = append(mixins, p.Mixins...)
		prefabs = append(prefabs, p.Prefabs...)
		ents = append(ents, p.Entities...)
		if p != doc {
			computed = append(computed, p.Computed...)
			doc.nEntities += p.nEntities
		}
	}
	doc.Systems, doc.Decls, doc.Mixins, doc.Prefabs, doc.Entities = scene, decls, mixins, prefabs, ents
	doc.Computed = append(computed, doc.Computed...)
}

// checkUnique reports duplicate entity ids, mixin ids, declarations and
// scene settings. The later definition is reported, naming the first.
func checkUnique(doc *Document, errs *errorSink) {
	// Settings keep their record: a position is worked out from the
	// file's line table, which only an error needs.
	settings := make(map[string]*ComponentSpec)
	for _, c := range doc.Systems {
		if first, ok := settings[c.Name]; ok {
			errs.add(c.Pos(), "duplicate scene setting %q (first at %s)", c.Name, first.Pos())
			continue
		}
		settings[c.Name] = c
	}
	seen := make(map[string]Pos)
	for _, d := range doc.Decls {
		if p, ok := seen[d.Name]; ok {
			errs.add(d.Pos, "duplicate component declaration %q (first at %s)", d.Name, p)
			continue
		}
		seen[d.Name] = d.Pos
	}
	clear(seen)
	for _, m := range doc.Mixins {
		if p, ok := seen[m.ID]; ok {
			errs.add(m.Pos, "duplicate mixin id %q (first at %s)", m.ID, p)
			continue
		}
		seen[m.ID] = m.Pos
	}
	checkPrefabSpecs(doc, errs)
	// Iterative walk: depth is bounded by the readers, but stay frugal.
	// Entities are many: the map keeps a pointer, not a position.
	ids := make(map[string]*EntitySpec, doc.nEntities)
	stack := make([]*EntitySpec, 0, 64)
	for _, root := range doc.Entities {
		// A tree at a time, the stack holding its entities only.
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if e.ID != "" {
				if first, ok := ids[e.ID]; ok {
					errs.add(e.IDPos, "duplicate entity id %q (first at %s)", e.ID, first.IDPos)
				} else {
					ids[e.ID] = e
				}
			}
			for i := len(e.Children) - 1; i >= 0; i-- {
				stack = append(stack, e.Children[i])
			}
			for i := len(e.Parts()) - 1; i >= 0; i-- {
				stack = append(stack, e.Parts()[i].Body.Children...)
			}
		}
	}
}

// validName reports whether s is a valid component or system name:
// a letter followed by letters, digits, '-' and '_', optionally followed by
// "__" and an instance id of letters, digits, '-' and '_' ("sound__walk").
func validName(s string, instance bool) bool {
	base, inst, hasInst := strings.Cut(s, "__")
	if hasInst && (!instance || inst == "" || strings.Contains(inst, "__")) {
		return false
	}
	if base == "" || !isLetter(base[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// validID reports whether s can be an entity id, mixin id or class name:
// non-empty, without white space or control characters.
func validID(s string) bool { return idProblem(s) == "" }

// idProblem says what makes s unfit for an entity id, mixin id or class
// name, or returns "" if it is fine.
func idProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	for _, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == 0x85 || r == 0xa0 || r == 0x2028 || r == 0x2029:
			return "no spaces allowed"
		case r < ' ' || r == 0x7f:
			return "no control characters allowed"
		}
	}
	return ""
}

// idMsg is the message for an invalid id or name s; what is "entity id",
// "mixin id" or, for list items, "class: name".
func idMsg(what, s string) string {
	if s == "" && strings.HasSuffix(what, " id") {
		return fmt.Sprintf("empty %s (leave the id out for none)", what)
	}
	return fmt.Sprintf("invalid %s %q (%s)", what, s, idProblem(s))
}

// nameError describes an invalid component name.
func nameMsg(what, s string) string {
	return fmt.Sprintf("invalid %s name %q (want a letter, then letters, digits, '-' or '_', optionally \"__\" and an instance id)", what, s)
}

// orList lists words for a message: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// mixinSubtreeMsg is the message for children, prefab or parts written
// in a mixin: a mixin is one entity's components, a prefab a subtree.
func mixinSubtreeMsg(key string) string {
	return fmt.Sprintf("%q is not allowed in a mixin: a mixin gives one entity components; for an entity with children, define a prefab (under %q, or <%s name=...>) and write %q on the entities", key, YAMLPrefabs, XMLPrefab, YAMLPrefab+": NAME")
}

// partPathProblem says what is wrong with the path of a part override
// (names inside the prefab, or indexes of unnamed children, joined by
// "/"), or returns "".
func partPathProblem(path string) string {
	if path == "" {
		return "empty part path (want the name of a child inside the prefab, such as gun-left or turret/barrel)"
	}
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "" || !validID(seg) {
			return fmt.Sprintf("invalid part path %q: want names inside the prefab (or indexes of unnamed children) joined by \"/\"", path)
		}
	}
	return ""
}

// checkPrefabSpecs reports duplicate prefab names, an id on a prefab
// itself, names of children inside prefabs that are not single path
// segments or repeat among siblings, and part bodies that say more than
// a part may (an id, a prefab or parts of their own).
func checkPrefabSpecs(doc *Document, errs *errorSink) {
	seen := map[string]Pos{}
	for _, p := range doc.Prefabs {
		if first, ok := seen[p.Name]; ok {
			errs.add(p.Pos, "duplicate prefab %q (first at %s)", p.Name, first)
			continue
		}
		seen[p.Name] = p.Pos
		if p.Body.ID != "" {
			errs.add(p.Body.IDPos, "prefab %q: a prefab has no id (its instances have theirs; inside a prefab, an id names a child)", p.Name)
		}
		checkPrefabNames(p.Body.Children, errs)
		checkParts(p.Body, errs)
	}
	WalkEntities(doc.Entities, func(e *EntitySpec) { checkParts(e, errs) })
}

// checkPrefabNames checks the names (ids) of children inside a prefab.
func checkPrefabNames(kids []*EntitySpec, errs *errorSink) {
	var names map[string]Pos
	for _, k := range kids {
		if k.ID != "" {
			if strings.Contains(k.ID, "/") {
				errs.add(k.IDPos, "name %q inside a prefab contains \"/\", which separates the names of a part's path", k.ID)
			} else if IsIndex(k.ID) {
				errs.add(k.IDPos, "name %q inside a prefab is a number, which addresses an unnamed child in a part's path; start it with a letter", k.ID)
			}
			if names == nil {
				names = map[string]Pos{}
			}
			if first, ok := names[k.ID]; ok {
				errs.add(k.IDPos, "duplicate name %q among the children of a prefab (first at %s)", k.ID, first)
			}
			names[k.ID] = k.IDPos
		}
		checkPrefabNames(k.Children, errs)
		checkParts(k, errs)
	}
}

// checkParts checks the part bodies of an instance e.
func checkParts(e *EntitySpec, errs *errorSink) {
	parts := e.Parts()
	if len(parts) > 0 && e.Prefab() == "" {
		if FormatOf(parts[0].PathPos.File) == FormatXML {
			errs.add(parts[0].PathPos, "<%s> in an <%s> without a %s attribute: only an instance of a prefab has parts", XMLPart, XMLEntity, XMLPrefab)
		} else {
			errs.add(parts[0].PathPos, "%q without %q: only an instance of a prefab has parts", YAMLParts, YAMLPrefab)
		}
	}
	for _, p := range parts {
		b := p.Body
		switch {
		case b.ID != "":
			errs.add(b.IDPos, "part %q: a part has the id its instance gives it; it takes components, class, mixin and children", p.Path)
		case b.Prefab() != "":
			errs.add(b.PrefabPos(), "part %q: a part cannot change which prefab it instantiates; change the prefab, or add a child instead", p.Path)
		case len(b.Parts()) > 0:
			errs.add(b.Parts()[0].PathPos, "part %q: parts cannot nest; write the path instead (%s/%s)", p.Path, p.Path, b.Parts()[0].Path)
		}
	}
}

// IsIndex reports whether s is a decimal number: in a part's path, the
// segment that names an unnamed child by its rank.
func IsIndex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// WalkEntities calls fn on every entity of the tree es in document
// order, the children of part bodies included.
func WalkEntities(es []*EntitySpec, fn func(*EntitySpec)) {
	for _, e := range es {
		fn(e)
		WalkEntities(e.Children, fn)
		for _, p := range e.Parts() {
			WalkEntities(p.Body.Children, fn)
		}
	}
}
