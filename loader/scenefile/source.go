package scenefile

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/scenecs/scenecs/internal/regfile"
	"github.com/scenecs/scenecs/loader/internal/jsonsyntax"
	"github.com/scenecs/scenecs/loader/internal/textpos"
	"github.com/scenecs/scenecs/loader/internal/xmltok"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// Source is the text of one scene file with its line table, kept by the
// components read from it so that an error inside a value can be placed
// exactly (see [ComponentSpec.TextAt]), and by the editor of package
// edit to find what it edits. Its line index is built on first use: only
// errors and edits need it.
type Source struct {
	file   string
	data   []byte
	format Format
	idx    *lineIndex
	once   sync.Once // builds idx: positions are asked for from any goroutine
	// kept are positions of records no span places (see keep); detached
	// marks the source of records that come from no file.
	kept     map[any]keyVals
	detached bool
}

// lines returns the source's line index.
func (s *Source) lines() *lineIndex {
	s.once.Do(func() { s.idx = newLineIndex(s.file, s.data) })
	return s.idx
}

// NewSource returns the source of the file named file (its format by its
// extension), whose bytes are data.
func NewSource(file string, data []byte) *Source {
	return &Source{file: file, data: data, format: FormatOf(file)}
}

// File returns the file's name, as positions in it give it.
func (s *Source) File() string { return s.file }

// Data returns the file's bytes (not to be modified).
func (s *Source) Data() []byte { return s.data }

// Pos returns the position of byte offset off (clamped to the data),
// with the column in characters.
func (s *Source) Pos(off int) Pos { return s.lines().pos(off) }

// Offset returns the byte offset of p in the source; false if p is not
// in it.
func (s *Source) Offset(p Pos) (int, bool) {
	if p.File != s.file {
		return 0, false
	}
	return s.lines().x.Offset(p.Line, p.Col)
}

// textPos returns the position of byte offset off in text, the decoded
// text of a key (isKey) or a value written at sp, whose position is p;
// key is the span of the value's key (a YAML block scalar's indentation
// counts from its line). The text may differ from what wrote it: quotes,
// escapes ("\t", "\u00e9", a JSON surrogate pair), doubled single
// quotes, folded or literal lines with their indentation, XML character
// and entity references ("&amp;", "&#10;"). The parser of the format
// decodes the span again and tells where each byte of the text was
// written. Without a span (a Document built in memory, a YAML file read
// by yaml.v3) the text is taken as written from p.
func (s *Source) textPos(p Pos, sp, key span, text string, off int, isKey bool) Pos {
	if s == nil || !sp.ok() || off <= 0 || off > len(text) || int(sp.end) > len(s.data) {
		return offsetPos(p, text, off)
	}
	got, at, ok := s.decode(sp, key, isKey)
	if !ok || got != text {
		return offsetPos(p, text, off)
	}
	return s.lines().pos(int(at[off]))
}

// decode decodes the key (isKey) or value written at sp again, with the
// parser of the source's format, and returns its text and where each
// byte of it was written (see yamlsyntax.Decoded).
func (s *Source) decode(sp, key span, isKey bool) (string, []int32, bool) {
	off, end := int(sp.off), int(sp.end)
	switch {
	case s.format == FormatXML && !isKey:
		return xmltok.DecodeValue(s.data, off, end)
	case s.format == FormatJSON && s.data[off] == '"':
		return jsonsyntax.DecodeString(s.data, off, end)
	case s.format != FormatYAML:
		// An XML name, a JSON number or literal: written as it reads.
		at := make([]int32, end-off+1)
		for i := range at {
			at[i] = int32(off + i)
		}
		return string(s.data[off:end]), at, true
	}
	parent := -1
	if key.ok() {
		k := int(key.off)
		line, _ := s.lines().x.LineCol(k)
		parent = k - s.lines().x.LineStart(line)
	}
	d, ok := yamlsyntax.DecodeScalar(s.data, off, end, parent)
	return d.Text, d.At, ok
}

// offsetPos moves p forward by the text up to byte offset off (characters,
// lines).
func offsetPos(p Pos, text string, off int) Pos {
	if off <= 0 || off > len(text) || !p.IsValid() {
		return p
	}
	p.Line, p.Col = textpos.Advance(p.Line, p.Col, text[:off])
	return p
}

// Source returns the file c was read from (nil for a component built in
// memory).
func (c *ComponentSpec) Source() *Source {
	if c.src != nil && c.src.detached {
		return nil
	}
	return c.src
}

// TextAt returns the position of byte off of c.Text, as the file wrote
// it (through quotes, escapes, folded lines, XML references), or, without
// the file's text (a Document built in memory), counted from ValuePos.
//
// For a value written as a list (c.List), Text is its items joined by
// ", ", and off is placed in the item it falls in (in a separator: at the
// start of the item after it).
func (c *ComponentSpec) TextAt(off int) Pos {
	if c.List != nil {
		return c.src.listPos(c.List, c.ValuePos(), c.key, off)
	}
	return c.src.textPos(c.ValuePos(), c.val, c.key, c.Text, off, false)
}

// listPos returns the position of byte off of the text of l (its items
// joined), whose value is at p and its key at key: inside the item it
// falls in; p for an empty list.
func (s *Source) listPos(l *ListValue, p Pos, key span, off int) Pos {
	i, in := l.item(off)
	if i < 0 || i >= len(l.Items) {
		return p
	}
	it := &l.Items[i]
	at := it.Pos
	if !at.IsValid() {
		at = p // an item built in memory
	}
	return s.textPos(at, it.at, key, it.Text, in, false)
}

// KeyAt returns the position of byte off of the key of c.Map[pair] (see
// TextAt).
func (c *ComponentSpec) KeyAt(pair, off int) Pos {
	kv := c.Map[pair]
	return c.src.textPos(kv.Pos(), kv.key, span{}, kv.Key, off, true)
}

// ValueAt returns the position of byte off of the value of c.Map[pair]
// (see TextAt).
func (c *ComponentSpec) ValueAt(pair, off int) Pos {
	kv := c.Map[pair]
	if kv.List != nil {
		return c.src.listPos(kv.List, kv.ValuePos(), kv.key, off)
	}
	return c.src.textPos(kv.ValuePos(), kv.val, kv.key, kv.Value, off, false)
}

// Reading scene files.
//
// A scene's files are read through a file system that reads each file
// once, in full and bounded, and refuses what is not a regular file: a
// named pipe would block the read forever and a device (a link to
// /dev/zero) would never end. On the operating system's file system
// (LoadFile, CheckFile, Reloader) symbolic links are resolved before the
// root check: the main file may be a link to anywhere, but what it
// includes may not lead outside the main file's directory. Refused files
// are not opened, or not read, so their content never shows in an error.

// Snapshot holds the contents of scene files, each as read once, by
// absolute path; [Reloader.ReloadFrom] parses exactly those bytes. A
// file watcher's [github.com/scenecs/scenecs/watch.Snapshot], the bytes
// it judged to be a save, converts to a Snapshot (both are
// map[string][]byte): the loader does not import the watcher.
type Snapshot map[string][]byte

// ErrNotRegular is the error for a scene file that is not a regular file
// (a named pipe, a device, a socket or a directory). Errors say what kind
// of file it is and match ErrNotRegular with errors.Is.
var ErrNotRegular = regfile.ErrNotRegular

// ErrOutsideRoot is the error for an include that a symbolic link leads
// out of the scene's root directory.
var ErrOutsideRoot = errors.New("a symbolic link leads outside the scene root")

// within reports whether path is root or lies under it (both cleaned and
// absolute).
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// SceneFS is the file system one read of a scene goes through, on the
// operating system's files under a root directory. It reads each file
// once and keeps the bytes (Stat and ReadFile see the same content); it
// takes a file's bytes from given instead when they are there (what a
// file watcher judged); and it records the names asked for, so that a failed
// read still knows which files it was made of.
type SceneFS struct {
	ctx   context.Context
	abs   string // the root directory, absolute
	real  string // the root with its links resolved; "" if that failed
	main  string // the main file's name: it may be a link to anywhere
	max   int64  // bytes per file, at most
	given Snapshot

	read  Snapshot            // what this read took, by absolute path
	infos map[string]fileInfo // by name
	errs  map[string]error    // by name
	names []string            // asked for, in order
}

// NewSceneFS returns the file system for the scene file main in dir:
// files are read at most max bytes each (and refused past that), and
// taken from given where they are there (by absolute path). ctx, if not
// nil, interrupts reading.
func NewSceneFS(ctx context.Context, dir, main string, max int64, given Snapshot) *SceneFS {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = ""
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return &SceneFS{ctx: ctx, abs: abs, real: real, main: main, max: max, given: given,
		read: Snapshot{}, infos: map[string]fileInfo{}, errs: map[string]error{}}
}

// Path returns the absolute path of the file name (a name inside the
// root, slash-separated).
func (f *SceneFS) Path(name string) string {
	return filepath.Join(f.abs, filepath.FromSlash(name))
}

// get reads the file name once.
func (f *SceneFS) get(name string) (fileInfo, error) {
	if fi, ok := f.infos[name]; ok {
		return fi, nil
	}
	if err, ok := f.errs[name]; ok {
		return fileInfo{}, err
	}
	f.names = append(f.names, name)
	fi, err := f.load(name)
	if err != nil {
		err = &fs.PathError{Op: "read", Path: name, Err: err}
		f.errs[name] = err
		return fileInfo{}, err
	}
	f.infos[name] = fi
	return fi, nil
}

func (f *SceneFS) load(name string) (fileInfo, error) {
	if err := f.ctx.Err(); err != nil {
		return fileInfo{}, err
	}
	if !fs.ValidPath(name) {
		return fileInfo{}, fs.ErrInvalid
	}
	p := f.Path(name)
	base := path.Base(name)
	var allow func(string) error
	if name != f.main {
		allow = func(real string) error {
			if f.real == "" || !within(f.real, real) {
				return ErrOutsideRoot
			}
			return nil
		}
	}
	if data, ok := f.given[p]; ok {
		// The root check holds for given bytes too; a file that cannot
		// be resolved now is read (and refused) like any other.
		ok := allow == nil
		if !ok {
			real, err := filepath.EvalSymlinks(p)
			if err == nil {
				if err := allow(real); err != nil {
					return fileInfo{}, err
				}
				ok = true
			}
		}
		if ok {
			f.read[p] = data
			return fileInfo{name: base, data: data, size: int64(len(data))}, nil
		}
	}
	data, size, err := regfile.Read(p, f.max, allow)
	if err != nil {
		return fileInfo{}, unwrapPath(err)
	}
	f.read[p] = data
	return fileInfo{name: base, data: data, size: size}, nil
}

// unwrapPath drops the operating system's path from err: messages name
// the file as the scene does.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Open implements fs.FS.
func (f *SceneFS) Open(name string) (fs.File, error) {
	fi, err := f.get(name)
	if err != nil {
		return nil, err
	}
	return &memFile{fileInfo: fi, r: bytes.NewReader(fi.data)}, nil
}

// Stat implements fs.StatFS: the file is read, once.
func (f *SceneFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := f.get(name)
	if err != nil {
		return nil, err
	}
	return fi, nil
}

// ReadFile implements fs.ReadFileFS.
func (f *SceneFS) ReadFile(name string) ([]byte, error) {
	fi, err := f.get(name)
	if err != nil {
		return nil, err
	}
	return fi.data, nil
}

// Snapshot returns what the reads took, by absolute path: the bytes read
// (or given) of each file that was read.
func (f *SceneFS) Snapshot() Snapshot { return f.read }

// Tried returns the absolute paths of the files asked for, read or not
// (a missing include too), in the order asked.
func (f *SceneFS) Tried() []string {
	out := make([]string, len(f.names))
	for i, n := range f.names {
		out[i] = f.Path(n)
	}
	return out
}

// fileInfo describes a file read whole.
type fileInfo struct {
	name string
	data []byte
	size int64 // may exceed len(data): a file over the limit
}

func (fi fileInfo) Name() string       { return fi.name }
func (fi fileInfo) Size() int64        { return fi.size }
func (fi fileInfo) Mode() fs.FileMode  { return 0o444 }
func (fi fileInfo) ModTime() time.Time { return time.Time{} }
func (fi fileInfo) IsDir() bool        { return false }
func (fi fileInfo) Sys() any           { return nil }

// memFile is an open file whose bytes were read.
type memFile struct {
	fileInfo
	r *bytes.Reader
}

func (m *memFile) Stat() (fs.FileInfo, error) { return m.fileInfo, nil }
func (m *memFile) Read(p []byte) (int, error) { return m.r.Read(p) }
func (m *memFile) Close() error               { return nil }

// guardedFS reads a scene from any fs.FS with the same care, as far as an
// fs.FS allows: a file must be a regular file by Stat before it is
// opened and by the open file's Stat before it is read, and it is read
// bounded. (os.DirFS follows links out of its directory: use LoadFile, or
// an os.Root's FS, for files of the operating system.)
type guardedFS struct {
	fsys fs.FS
	ctx  context.Context
	max  int64
}

// guardFS returns fsys guarded for reading a scene of at most max bytes
// per file (fsys itself if it is already).
func GuardFS(ctx context.Context, fsys fs.FS, max int64) fs.FS {
	switch fsys.(type) {
	case *SceneFS, *guardedFS:
		return fsys
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return &guardedFS{fsys: fsys, ctx: ctx, max: max}
}

// Open implements fs.FS.
func (g *guardedFS) Open(name string) (fs.File, error) {
	if _, err := g.Stat(name); err != nil {
		return nil, err
	}
	return g.fsys.Open(name)
}

// Stat implements fs.StatFS, refusing what is not a regular file.
func (g *guardedFS) Stat(name string) (fs.FileInfo, error) {
	if err := g.ctx.Err(); err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	fi, err := fs.Stat(g.fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: regfile.NotRegularError{Mode: fi.Mode()}}
	}
	return fi, nil
}

// ReadFile implements fs.ReadFileFS: bounded, and only a regular file.
func (g *guardedFS) ReadFile(name string) ([]byte, error) {
	if _, err := g.Stat(name); err != nil {
		return nil, err
	}
	f, err := g.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: regfile.NotRegularError{Mode: fi.Mode()}}
	}
	data, _, err := regfile.ReadBounded(f, fi.Size(), g.max)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPath(err)}
	}
	return data, nil
}
