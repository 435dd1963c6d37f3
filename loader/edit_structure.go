package loader

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/regfile"
)

// Structure edits saved into a scene file: an entity's whole block taken
// out of its file (PrepareDestroy), and put back by undo (PrepareSwapEntity
// and SaveEdit.Adopt). As for a component's save-back, the edit is made
// on the bytes the scene was read from, then the scene is compiled with
// it and diffed with the running scene: the diff must destroy that one
// entity (with its subtree) and change nothing else, or the edit is
// refused rather than written.
//
// This file belongs with the scene-file editing code (scenefile/edit
// once loader is split into layers): EditRemoveEntity works on bytes and
// an EntitySpec alone; the Prepare functions use the Reloader only
// through checkFile, Scene.Diff and the SaveEdit they return.

// PrepareDestroy prepares taking entity e's block (with its children)
// out of the scene file it was read from. Call it on the simulation
// goroutine before destroying e in the World, and Commit after: the
// scene's Plan then no longer has it, and a reload keeps it gone.
//
// Refused: an entity no file wrote (spawned, or made at run time:
// ErrNoSource), a part of a prefab's instance (its place is the
// prefab's: ErrFromPrefab), a file edited since it was read
// (ErrFileChanged), a read-only file (ErrReadOnly), a JSON file or an
// entity written in a way the editor does not take apart, and an edit
// that would change more than that entity, such as an entity without an
// id whose later siblings are matched by their place and would shift
// (ErrCannotEdit: give it an id, or edit the file).
func (r *Reloader) PrepareDestroy(e ecs.Entity) (*SaveEdit, error) {
	n := r.Scene.Nodes[e]
	if n == nil || n.Src == nil || !n.Src.Pos.IsValid() {
		return nil, fmt.Errorf("the entity was made at run time (spawned, or by the program or the inspector): %w", ErrNoSource)
	}
	if r.Scene.Registry.PartKey(e) != "" {
		return nil, fmt.Errorf("the entity is a part of an instance of a prefab: its place is the prefab's: %w", ErrFromPrefab)
	}
	ent := n.Src
	path := scenePath(r.File, ent.File)
	src, err := r.currentBytes(path, ent)
	if err != nil {
		return nil, err
	}
	out, err := EditRemoveEntity(src, ent)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	if err := onlyDestroyed(d, n); err != nil {
		return nil, fmt.Errorf("%s: taking the entity out would change more than that (%v); nothing saved: %w", ent.Pos, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: ent.File, Pos: ent.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.read}, nil
}

// currentBytes returns the bytes of the file at path, which must be those
// the running scene (and ent's position) was read from.
func (r *Reloader) currentBytes(path string, ent *EntitySpec) ([]byte, error) {
	src := r.last[path]
	if src == nil {
		src = entitySource(ent)
	}
	if src == nil { // an entity without components: another one's
		walkNodes(r.Scene.Plan.Roots, func(n *Node) {
			if src == nil && n.Src != nil && n.Src.File == ent.File {
				src = entitySource(n.Src)
			}
		})
	}
	cur, _, err := regfile.Read(path, r.Options.Limits.withDefaults().MaxBytes, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if src == nil || !bytes.Equal(cur, src) {
		return nil, fmt.Errorf("%s: %w and are not reloaded yet; nothing saved (save again once the watcher has reloaded them)", ent.File, ErrFileChanged)
	}
	return src, nil
}

// onlyDestroyed checks that d destroys node n (with its subtree) and
// changes nothing else.
func onlyDestroyed(d *Diff, n *Node) error {
	if len(d.Destroyed) != 1 || d.Destroyed[0] != n {
		return errors.New(d.String())
	}
	if len(d.Created)+len(d.Changed)+len(d.Moved)+len(d.Decls)+len(d.Systems)+len(d.Mixins)+len(d.Prefabs) > 0 || !d.spawned.empty() {
		return errors.New(d.String())
	}
	return nil
}

// PrepareSwapEntity prepares writing to into the scene file at path,
// which must hold from now: the undo (to: the bytes before) or redo of a
// saved destruction of an entity. Undo's diff creates one entity, which
// the caller makes in the World (as it was) and gives to Adopt before
// Commit, so that the scene's Plan knows it as the file's; redo's diff
// destroys entity e, which the caller destroys in the World before
// Commit. Anything else is refused as PrepareSwap refuses it.
func (r *Reloader) PrepareSwapEntity(e ecs.Entity, path string, from, to []byte) (*SaveEdit, error) {
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	n := r.Scene.Nodes[e]
	created := len(d.Created) == 1 && len(d.Destroyed) == 0
	destroyed := n != nil && onlyDestroyed(d, n) == nil
	rest := len(d.Changed)+len(d.Moved)+len(d.Decls)+len(d.Systems)+len(d.Mixins)+len(d.Prefabs) > 0 || !d.spawned.empty()
	if !(created || destroyed) || rest {
		return nil, fmt.Errorf("putting %s back would change more than that entity (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, d, ErrFileChanged)
	}
	return s, nil
}

// Adopt makes the entity the prepared swap creates (PrepareSwapEntity
// for an undo) the entity e the caller made in the World for it, with
// its subtree, child by child: Commit then creates nothing. e's subtree
// must have the shape of the file's.
func (s *SaveEdit) Adopt(e ecs.Entity) error {
	d := s.diff
	if d == nil || len(d.Created) != 1 {
		return errors.New("loader: Adopt: the edit creates no entity")
	}
	w := s.r.Scene.World
	pairs := map[*Node]ecs.Entity{}
	var walk func(n *Node, e ecs.Entity) error
	walk = func(n *Node, e ecs.Entity) error {
		kids := w.Children(e)
		if len(kids) != len(n.Children) {
			return fmt.Errorf("loader: Adopt: %s has %d children in the file and %d in the World", n.Path, len(n.Children), len(kids))
		}
		pairs[n] = e
		for i, c := range n.Children {
			if err := walk(c, kids[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(d.Created[0], e); err != nil {
		return err
	}
	for n, x := range pairs {
		d.ents[n] = x
		if d.new.entDiff == d {
			n.ent = x
		}
	}
	d.Created = nil
	return nil
}

// EditRemoveEntity returns src without the block of entity ent (its
// lines, children and comments inside them included; in XML its element
// and the line it takes). A YAML entity must be a block sequence item
// whose first key is on the dash's line; the only item of its sequence
// leaves an empty flow sequence ("children: []").
func EditRemoveEntity(src []byte, ent *EntitySpec) ([]byte, error) {
	start, ok := lineColOffset(src, ent.Pos.Line, ent.Pos.Col)
	if !ok {
		return nil, fmt.Errorf("%s: the entity's position is not in the file: %w", ent.Pos, ErrCannotEdit)
	}
	switch FormatOf(ent.File) {
	case FormatYAML:
		return removeYAMLItem(src, start, ent)
	case FormatXML:
		return removeXMLElement(src, start, ent)
	}
	return nil, fmt.Errorf("%s: the editor does not edit %s files: %w", ent.File, formatName(ent.File), ErrCannotEdit)
}

// lineColOffset returns the byte offset of 1-based line and column (in
// characters).
func lineColOffset(src []byte, line, col int) (int, bool) {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(src) || src[off] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off, true
}

// lineAt returns the start and end (after its '\n', or len) of the line
// holding offset off.
func lineAt(src []byte, off int) (int, int) {
	s := bytes.LastIndexByte(src[:off], '\n') + 1
	e := bytes.IndexByte(src[off:], '\n')
	if e < 0 {
		return s, len(src)
	}
	return s, off + e + 1
}

// indentOf returns the number of leading spaces of line, and whether the
// line holds only white space (or is a comment, when comments is set).
func indentOf(line []byte) (n int, blank bool) {
	for n < len(line) && line[n] == ' ' {
		n++
	}
	rest := bytes.TrimRight(line[n:], " \t\r\n")
	return n, len(rest) == 0
}

// removeYAMLItem removes the block sequence item whose first key starts
// at start.
func removeYAMLItem(src []byte, start int, ent *EntitySpec) ([]byte, error) {
	ls, le := lineAt(src, start)
	prefix := src[ls:start]
	dash, _ := indentOf(prefix)
	if dash >= len(prefix) || prefix[dash] != '-' || len(bytes.TrimLeft(prefix[dash+1:], " ")) != 0 {
		return nil, fmt.Errorf("%s: the entity is not a block sequence item whose first key is on the dash's line: %w", ent.Pos, ErrCannotEdit)
	}
	end := le // after the last line of the block
	for next := le; next < len(src); {
		_, ne := lineAt(src, next)
		ind, blank := indentOf(src[next:ne])
		if !blank && ind <= dash {
			break
		}
		if !blank {
			end = ne
		}
		next = ne
	}
	out := append(append([]byte{}, src[:ls]...), src[end:]...)
	if only, keyEnd := onlyItem(src, ls, end, dash); only {
		out = append(append(append([]byte{}, src[:keyEnd]...), " []"...), out[keyEnd:]...)
	}
	return out, nil
}

// onlyItem reports whether the item in src[ls:end] (dash at column
// dash) is the only one of its sequence: the line before it (blank lines
// aside) ends a "key:" with nothing after it, and no item at the same
// indentation follows. keyEnd is the offset right after that colon.
func onlyItem(src []byte, ls, end, dash int) (bool, int) {
	p := ls
	for p > 0 {
		s, _ := lineAt(src, p-1)
		line := bytes.TrimRight(src[s:p], " \t\r\n")
		if len(bytes.TrimSpace(line)) == 0 {
			p = s
			continue
		}
		if !bytes.HasSuffix(line, []byte(":")) {
			return false, 0
		}
		keyEnd := s + len(line)
		if end < len(src) {
			_, ne := lineAt(src, end)
			ind, _ := indentOf(src[end:ne])
			if ind == dash && end+ind < len(src) && src[end+ind] == '-' {
				return false, 0
			}
		}
		return true, keyEnd
	}
	return false, 0
}

// removeXMLElement removes the entity element starting at start (its
// '<'), with the line it takes when nothing else is on it.
func removeXMLElement(src []byte, start int, ent *EntitySpec) ([]byte, error) {
	if start >= len(src) || src[start] != '<' {
		return nil, fmt.Errorf("%s: no start tag at the entity's position: %w", ent.Pos, ErrCannotEdit)
	}
	end, err := xmlElementEnd(src, start)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
	}
	ls, _ := lineAt(src, start)
	_, le := lineAt(src, max(end-1, start))
	before := bytes.TrimLeft(src[ls:start], " \t")
	after := bytes.TrimRight(src[end:le], " \t\r\n")
	if len(before) == 0 && len(after) == 0 {
		start, end = ls, le
	}
	return append(append([]byte{}, src[:start]...), src[end:]...), nil
}

// xmlElementEnd returns the offset right after the element that starts
// at start, counting nested entity elements and skipping comments,
// CDATA sections, processing instructions and quoted attribute values.
func xmlElementEnd(src []byte, start int) (int, error) {
	depth := 0
	for p := start; p < len(src); {
		i := bytes.IndexByte(src[p:], '<')
		if i < 0 {
			break
		}
		p += i
		rest := src[p:]
		var skip string
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			skip = "-->"
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			skip = "]]>"
		case bytes.HasPrefix(rest, []byte("<?")):
			skip = "?>"
		}
		if skip != "" {
			j := bytes.Index(rest, []byte(skip))
			if j < 0 {
				return 0, errors.New("unterminated markup")
			}
			p += j + len(skip)
			continue
		}
		closing := bytes.HasPrefix(rest, []byte("</"))
		tagEnd, selfClosing, err := xmlTagEnd(src, p)
		if err != nil {
			return 0, err
		}
		name := xmlTagName(rest, closing)
		switch {
		case name != "entity":
		case closing:
			depth--
		case !selfClosing:
			depth++
		}
		p = tagEnd
		if depth == 0 {
			return p, nil
		}
	}
	return 0, errors.New("the element does not end")
}

// xmlTagEnd returns the offset after the tag starting at p ('<'), and
// whether it closes itself ("/>").
func xmlTagEnd(src []byte, p int) (int, bool, error) {
	var quote byte
	for i := p + 1; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i + 1, src[i-1] == '/', nil
		}
	}
	return 0, false, errors.New("a tag does not end")
}

// xmlTagName returns the name of the tag at the start of rest.
func xmlTagName(rest []byte, closing bool) string {
	i := 1
	if closing {
		i = 2
	}
	j := i
	for j < len(rest) && rest[j] != ' ' && rest[j] != '>' && rest[j] != '/' && rest[j] != '\t' && rest[j] != '\n' && rest[j] != '\r' {
		j++
	}
	return string(rest[i:j])
}

// PrepareCreate prepares writing entity e, made at run time (through the
// inspector: created or cloned), with its subtree into the scene file of
// its parent (the main scene file for a root), as a block of its own
// right after its previous sibling that a file wrote (or before the
// first), at that sibling's indentation. Call it on the simulation
// goroutine after making e, and Commit: the scene's Plan then knows e as
// the file's, so that a reload keeps it as it is.
//
// The block writes e's id, classes and every component as its attribute
// string (the values e has, mixins composed: the file gets no "mixin:").
// The edited scene is compiled and diffed with the running scene: it must
// create that one entity under the right parent, with every component
// and value e has, and change nothing else. Refused: a parent no file
// wrote (save it first: ErrNoSource), an instance of a prefab or a part
// of one (ErrFromPrefab), and what PrepareDestroy refuses.
func (r *Reloader) PrepareCreate(e ecs.Entity) (*SaveEdit, error) {
	sc := r.Scene
	if n := sc.Nodes[e]; n != nil {
		return nil, fmt.Errorf("the entity is already in the scene's files: %w", ErrCannotEdit)
	}
	if err := r.writable(e); err != nil {
		return nil, err
	}
	ins, err := r.insertPlace(e)
	if err != nil {
		return nil, err
	}
	path := scenePath(r.File, ins.file)
	src, err := r.currentBytes(path, ins.spec())
	if err != nil {
		return nil, err
	}
	out, err := ins.insert(src, r.blockOf(e, ins))
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(sc.Registry, r.File, r.Options, Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := sc.Diff(plan)
	if err := r.onlyCreated(d, e); err != nil {
		return nil, fmt.Errorf("%s: writing the entity would not give what the running scene has (%v); nothing saved: %w", ins.file, err, ErrCannotEdit)
	}
	s := &SaveEdit{File: path, Name: ins.file, Before: src, After: out, r: r, diff: d, snap: sfs.read}
	if err := s.Adopt(e); err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	return s, nil
}

// writable refuses an entity (or subtree) a file cannot write as it is:
// an instance of a prefab, or a part of one.
func (r *Reloader) writable(e ecs.Entity) error {
	reg, w := r.Scene.Registry, r.Scene.World
	if reg.PrefabOf(e) != "" || reg.PartKey(e) != "" {
		return fmt.Errorf("the entity is (or is a part of) an instance of a prefab, which this save does not write: %w", ErrFromPrefab)
	}
	for _, c := range w.Children(e) {
		if err := r.writable(c); err != nil {
			return err
		}
	}
	return nil
}

// insertion is where a new entity's block goes in a file.
type insertion struct {
	file   string
	xml    bool
	parent *Node // nil: a root
	after  *Node // the previous sibling a file wrote, or nil
	before *Node // the next one, when there is no previous
}

// insertPlace finds where e's block goes.
func (r *Reloader) insertPlace(e ecs.Entity) (*insertion, error) {
	sc, w := r.Scene, r.Scene.World
	ins := &insertion{file: filepath.Base(r.File)}
	if p, ok := w.Parent(e); ok {
		pn := sc.Nodes[p]
		if pn == nil || pn.Src == nil || !pn.Src.Pos.IsValid() {
			return nil, fmt.Errorf("the entity's parent was made at run time: save the parent first: %w", ErrNoSource)
		}
		if r.Scene.Registry.PrefabOf(p) != "" || r.Scene.Registry.PartKey(p) != "" {
			return nil, fmt.Errorf("the entity's parent is (a part of) an instance of a prefab: %w", ErrFromPrefab)
		}
		ins.parent, ins.file = pn, pn.Src.File
	} else if len(sc.Plan.Roots) > 0 && sc.Plan.Roots[0].Src != nil {
		ins.file = sc.Plan.Roots[0].Src.File
	}
	for x, ok := w.PrevSibling(e); ok; x, ok = w.PrevSibling(x) {
		if n := sc.Nodes[x]; n != nil && n.Src != nil && n.Src.File == ins.file {
			ins.after = n
			break
		}
	}
	if ins.after == nil {
		for x, ok := w.NextSibling(e); ok; x, ok = w.NextSibling(x) {
			if n := sc.Nodes[x]; n != nil && n.Src != nil && n.Src.File == ins.file {
				ins.before = n
				break
			}
		}
	}
	ins.xml = FormatOf(ins.file) == FormatXML
	if !ins.xml && FormatOf(ins.file) != FormatYAML {
		return nil, fmt.Errorf("%s: the editor does not edit %s files: %w", ins.file, formatName(ins.file), ErrCannotEdit)
	}
	return ins, nil
}

// onlyCreated checks that d creates one entity, e's counterpart (its
// parent's node, every component and value of e and its subtree), and
// changes nothing else.
func (r *Reloader) onlyCreated(d *Diff, e ecs.Entity) error {
	if len(d.Created) != 1 || len(d.Destroyed)+len(d.Changed)+len(d.Moved)+len(d.Decls)+len(d.Systems)+len(d.Mixins)+len(d.Prefabs) > 0 || !d.spawned.empty() {
		return errors.New(d.String())
	}
	n := d.Created[0]
	if p, ok := r.Scene.World.Parent(e); ok != (n.Parent != nil) || ok && d.ents[n.Parent] != p {
		return errors.New("it would be under another parent")
	}
	return r.sameAsWorld(n, e)
}

// sameAsWorld checks that node n composes exactly what entity e has (id,
// classes, components and values; the computed world transform aside),
// and so for their children in order.
func (r *Reloader) sameAsWorld(n *Node, e ecs.Entity) error {
	reg, w := r.Scene.Registry, r.Scene.World
	if n.ID() != reg.EntityID(e) || !slicesEqual(n.Class(), reg.Classes(e)) {
		return fmt.Errorf("%s: its id or classes differ", n.Path)
	}
	want := map[string]bool{}
	for _, name := range reg.EntityComponents(e) {
		if c, ok := reg.Component(name); ok && !c.ReadOnly() {
			want[name] = true
		}
	}
	for _, np := range n.Comps {
		if !want[np.Name] {
			return fmt.Errorf("%s: it would get %s", n.Path, np.Name)
		}
		delete(want, np.Name)
		vals, err := reg.Values(e, np.Name)
		sch := schemaOf(reg, np.Name)
		if err != nil || sch == nil {
			return fmt.Errorf("%s: %s: %v", n.Path, np.Name, err)
		}
		for _, pv := range np.Patch {
			if pv.Index >= len(vals) || !sch.Props[pv.Index].Type.Equal(pv.Value, vals[pv.Index]) {
				return fmt.Errorf("%s: %s would not read back as the running scene has it", n.Path, np.Name)
			}
		}
	}
	for name := range want {
		return fmt.Errorf("%s: it would lose %s", n.Path, name)
	}
	kids := w.Children(e)
	if len(kids) != len(n.Children) {
		return fmt.Errorf("%s: %d children, want %d", n.Path, len(n.Children), len(kids))
	}
	for i, c := range n.Children {
		if err := r.sameAsWorld(c, kids[i]); err != nil {
			return err
		}
	}
	return nil
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// blockOf writes e and its subtree as a scene file block, without
// indentation (ins.insert indents it).
func (r *Reloader) blockOf(e ecs.Entity, ins *insertion) []string {
	reg, w := r.Scene.Registry, r.Scene.World
	type kv struct{ k, v string }
	var keys []kv
	if id := reg.EntityID(e); id != "" {
		keys = append(keys, kv{"id", id})
	}
	if cl := reg.Classes(e); len(cl) > 0 {
		keys = append(keys, kv{"class", strings.Join(cl, " ")})
	}
	for _, name := range reg.EntityComponents(e) {
		c, ok := reg.Component(name)
		if !ok || c.ReadOnly() {
			continue
		}
		attr, _ := reg.Attr(e, name)
		keys = append(keys, kv{name, attr})
	}
	kids := w.Children(e)
	var out []string
	if ins.xml {
		tag := "<entity"
		for _, p := range keys {
			tag += " " + p.k + `="` + xmlEscape(p.v, '"') + `"`
		}
		if len(kids) == 0 {
			return []string{tag + "/>"}
		}
		out = append(out, tag+">")
		for _, k := range kids {
			for _, l := range r.blockOf(k, ins) {
				out = append(out, "  "+l)
			}
		}
		return append(out, "</entity>")
	}
	for i, p := range keys {
		line := p.k + ":"
		if p.v != "" {
			line += " " + yamlValue(p.v, false)
		}
		if i == 0 {
			out = append(out, "- "+line)
		} else {
			out = append(out, "  "+line)
		}
	}
	if len(keys) == 0 {
		out = append(out, "- {}")
	}
	if len(kids) > 0 {
		out = append(out, "  children:")
		for _, k := range kids {
			for _, l := range r.blockOf(k, ins) {
				out = append(out, "    "+l)
			}
		}
	}
	return out
}

// insert puts the block's lines into src at ins's place.
func (ins *insertion) insert(src []byte, lines []string) ([]byte, error) {
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	at, indent, lead, err := ins.where(src)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(lead)
	for _, l := range lines {
		b.WriteString(indent + l + nl)
	}
	out := append(append(append([]byte{}, src[:at]...), b.String()...), src[at:]...)
	return out, nil
}

// where returns the offset the block goes at, the indentation of its
// lines, and text to write first (a "children:" key, say).
func (ins *insertion) where(src []byte) (at int, indent, lead string, err error) {
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	sib := ins.after
	if sib == nil {
		sib = ins.before
	}
	if sib != nil {
		start, ok := lineColOffset(src, sib.Src.Pos.Line, sib.Src.Pos.Col)
		if !ok {
			return 0, "", "", fmt.Errorf("%s: the sibling's position is not in the file: %w", sib.Src.Pos, ErrCannotEdit)
		}
		ls, _ := lineAt(src, start)
		ind, _ := indentOf(src[ls:start])
		if ins.before != nil {
			return ls, strings.Repeat(" ", ind), "", nil
		}
		end, err := blockEnd(src, start, ins.xml, sib.Src)
		return end, strings.Repeat(" ", ind), "", err
	}
	if ins.parent == nil {
		return 0, "", "", fmt.Errorf("the scene's file has no entities to put a new root after: %w", ErrCannotEdit)
	}
	ps := ins.parent.Src
	start, ok := lineColOffset(src, ps.Pos.Line, ps.Pos.Col)
	if !ok {
		return 0, "", "", fmt.Errorf("%s: the parent's position is not in the file: %w", ps.Pos, ErrCannotEdit)
	}
	ls, _ := lineAt(src, start)
	if ins.xml {
		ind, _ := indentOf(src[ls:start])
		return xmlFirstChild(src, start, ind, nl)
	}
	end, err := blockEnd(src, start, false, ps)
	if err != nil {
		return 0, "", "", err
	}
	key := start - ls // the parent's keys' column
	if strings.Contains(string(src[start:end]), "children:") {
		return 0, "", "", fmt.Errorf("%s: the parent writes children: in a way the editor does not extend: %w", ps.Pos, ErrCannotEdit)
	}
	return end, strings.Repeat(" ", key+2), strings.Repeat(" ", key) + "children:" + nl, nil
}

// blockEnd returns the offset after the block (YAML item or XML element)
// of the entity whose first key or start tag is at start.
func blockEnd(src []byte, start int, xml bool, ent *EntitySpec) (int, error) {
	if xml {
		end, err := xmlElementEnd(src, start)
		if err != nil {
			return 0, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
		}
		_, le := lineAt(src, max(end-1, start))
		if len(bytes.TrimSpace(src[end:le])) == 0 {
			return le, nil
		}
		return 0, fmt.Errorf("%s: something follows the element on its line: %w", ent.Pos, ErrCannotEdit)
	}
	ls, le := lineAt(src, start)
	dash, _ := indentOf(src[ls:start])
	end := le
	for next := le; next < len(src); {
		_, ne := lineAt(src, next)
		ind, blank := indentOf(src[next:ne])
		if !blank && ind <= dash {
			break
		}
		if !blank {
			end = ne
		}
		next = ne
	}
	if end == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
		return 0, fmt.Errorf("%s: the file does not end with a line break: %w", ent.Pos, ErrCannotEdit)
	}
	return end, nil
}

// xmlFirstChild returns where the first child element of the element at
// start goes: before its end tag, or in place of its "/>".
func xmlFirstChild(src []byte, start, ind int, nl string) (int, string, string, error) {
	tagEnd, self, err := xmlTagEnd(src, start)
	if err != nil {
		return 0, "", "", fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	pad := strings.Repeat(" ", ind)
	if self {
		return 0, "", "", fmt.Errorf("the parent element closes itself (%s/>): give it an end tag first: %w", pad, ErrCannotEdit)
	}
	end, err := xmlElementEnd(src, start)
	if err != nil {
		return 0, "", "", fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	closeAt := bytes.LastIndex(src[tagEnd:end], []byte("</")) + tagEnd
	ls, _ := lineAt(src, closeAt)
	if len(bytes.TrimSpace(src[ls:closeAt])) == 0 {
		return ls, pad + "  ", "", nil
	}
	return closeAt, pad + "  ", nl, nil
}

// spec is an entity of the file the block goes into.
func (ins *insertion) spec() *EntitySpec {
	for _, n := range []*Node{ins.after, ins.before, ins.parent} {
		if n != nil && n.Src != nil {
			return n.Src
		}
	}
	return &EntitySpec{File: ins.file}
}

// PrepareReparent prepares moving entity e's block in its file to where
// e now stands in the World (moved there just before, under another
// parent, last among its siblings): its lines are taken out and put
// back after the new previous sibling's block (or as the parent's first
// child), shifted to that indentation, comments and layout kept. Call it
// on the simulation goroutine right after the move, and Commit. The
// edited scene must move that entity and change nothing else, so an
// entity without an id (matched by its place) is refused: give it an id.
// Refused too: a move between files, an entity made at run time or a
// part of a prefab instance, as PrepareDestroy refuses them.
func (r *Reloader) PrepareReparent(e ecs.Entity) (*SaveEdit, error) {
	n := r.Scene.Nodes[e]
	if n == nil || n.Src == nil || !n.Src.Pos.IsValid() {
		return nil, fmt.Errorf("the entity was made at run time (spawned, or by the program or the inspector): %w", ErrNoSource)
	}
	if r.Scene.Registry.PartKey(e) != "" {
		return nil, fmt.Errorf("the entity is a part of an instance of a prefab: its place is the prefab's: %w", ErrFromPrefab)
	}
	ins, err := r.insertPlace(e)
	if err != nil {
		return nil, err
	}
	if ins.after == n || ins.before == n {
		return nil, fmt.Errorf("loader: PrepareReparent: the entity is its own sibling")
	}
	ent := n.Src
	if ins.file != ent.File {
		return nil, fmt.Errorf("the entity is written in %s and its new parent in %s: the editor does not move blocks between files: %w", ent.File, ins.file, ErrCannotEdit)
	}
	path := scenePath(r.File, ent.File)
	src, err := r.currentBytes(path, ent)
	if err != nil {
		return nil, err
	}
	out, err := moveBlock(src, ent, ins)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	if err := onlyMoved(d, e); err != nil {
		return nil, fmt.Errorf("%s: moving the entity's block would change more than its place (%v); nothing saved (an entity without an id is matched by its place: give it an id): %w", ent.Pos, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: ent.File, Pos: ent.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.read}, nil
}

// onlyMoved checks that d moves entity e and changes nothing else.
func onlyMoved(d *Diff, e ecs.Entity) error {
	if len(d.Moved) != 1 || d.ents[d.Moved[0]] != e {
		return errors.New(d.String())
	}
	if len(d.Created)+len(d.Destroyed)+len(d.Changed)+len(d.Decls)+len(d.Systems)+len(d.Mixins)+len(d.Prefabs) > 0 || !d.spawned.empty() {
		return errors.New(d.String())
	}
	return nil
}

// moveBlock returns src with ent's block moved to ins's place.
func moveBlock(src []byte, ent *EntitySpec, ins *insertion) ([]byte, error) {
	start, ok := lineColOffset(src, ent.Pos.Line, ent.Pos.Col)
	if !ok {
		return nil, fmt.Errorf("%s: the entity's position is not in the file: %w", ent.Pos, ErrCannotEdit)
	}
	rs, _ := lineAt(src, start)
	re, err := blockEnd(src, start, ins.xml, ent)
	if err != nil {
		return nil, err
	}
	at, indent, lead, err := ins.where(src)
	if err != nil {
		return nil, err
	}
	if at > rs && at < re {
		return nil, fmt.Errorf("%s: the new place is inside the entity's own block: %w", ent.Pos, ErrCannotEdit)
	}
	old, _ := indentOf(src[rs:start])
	lines := strings.SplitAfter(string(src[rs:re]), "\n")
	var b strings.Builder
	b.WriteString(lead)
	for _, l := range lines {
		if l == "" {
			continue
		}
		ind, blank := indentOf([]byte(l))
		if blank {
			b.WriteString(l)
			continue
		}
		if ind < old {
			return nil, fmt.Errorf("%s: a line of the block is indented less than its first: %w", ent.Pos, ErrCannotEdit)
		}
		b.WriteString(indent + l[old:])
	}
	block := b.String()
	out := make([]byte, 0, len(src)+len(block))
	if at >= re {
		out = append(append(append(append(out, src[:rs]...), src[re:at]...), block...), src[at:]...)
	} else {
		out = append(append(append(append(out, src[:at]...), block...), src[at:rs]...), src[re:]...)
	}
	return out, nil
}

// PrepareSwapMove prepares writing to into the scene file at path, which
// must hold from now: the undo or redo of a saved move of entity e
// (PrepareReparent). The caller moves e in the World and Commits.
func (r *Reloader) PrepareSwapMove(e ecs.Entity, path string, from, to []byte) (*SaveEdit, error) {
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	if err := onlyMoved(d, e); err != nil {
		return nil, fmt.Errorf("putting %s back would change more than the entity's place (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, err, ErrFileChanged)
	}
	return s, nil
}
