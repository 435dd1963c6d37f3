package ecs

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"
)

// ID identifies a component type within one [World]. IDs are dense,
// starting at 0, in registration order ([Register], [World.RegisterType],
// ...); [World.NumComponents] says how many there are and
// [World.ComponentInfo] describes each.
type ID uint32

// Errors returned by [World] operations. They are wrapped with the entity
// or component they concern; test with [errors.Is].
var (
	// ErrStale reports a handle that does not name a live entity of this
	// [World]: destroyed, the zero [Entity], or made by another World.
	ErrStale = errors.New("stale entity handle")
	// ErrNoComponent reports an operation on a component the entity does
	// not have.
	ErrNoComponent = errors.New("entity does not have the component")
	// ErrHasComponent reports an add ([World.Add], [Map.Add], ...) of a
	// component the entity already has.
	ErrHasComponent = errors.New("entity already has the component")
	// ErrUnknownComponent reports a component [ID] or name that is not
	// registered in this [World].
	ErrUnknownComponent = errors.New("unknown component")
	// ErrDuplicateName reports a registration ([Register], ...) under a
	// name already taken.
	ErrDuplicateName = errors.New("component name already registered")
	// ErrCycle reports a reparenting ([World.SetParent],
	// [World.InsertChild]) that would make an entity its own ancestor.
	ErrCycle = errors.New("entity would become its own ancestor")
)

// Info describes a registered component: see [World.ComponentInfo].
type Info struct {
	ID   ID
	Name string
	// Type is the Go type stored for the component. For components
	// registered with [World.RegisterBytes] it is an array type of that
	// size.
	Type reflect.Type
	// Size is the per-entity size in bytes; 0 for tags.
	Size uintptr
}

// IsTag reports whether the component has no data and so takes no
// per-entity storage.
func (i Info) IsTag() bool { return i.Size == 0 }

// compInfo is the World's private description of a component: its layout
// and the typed operations prepared once at registration so that moving
// rows never needs reflection for Go-typed components.
type compInfo struct {
	Info
	hasPtr bool
	// makeSlice allocates zeroed storage for n values and returns the
	// value that keeps it alive and the pointer to its first element.
	makeSlice func(n int) (keep any, base unsafe.Pointer)
	// copyN copies n values from src to dst with the write barriers the
	// garbage collector needs.
	copyN func(dst, src unsafe.Pointer, n int)
	// zeroN clears n values.
	zeroN func(dst unsafe.Pointer, n int)
	// alloc allocates one zeroed value.
	alloc func() unsafe.Pointer
}

func typedInfo[T any]() compInfo {
	var zero T
	t := reflect.TypeOf((*T)(nil)).Elem()
	size := unsafe.Sizeof(zero)
	ci := compInfo{Info: Info{Type: t, Size: size}, hasPtr: hasPointers(t)}
	ci.makeSlice = func(n int) (any, unsafe.Pointer) {
		s := make([]T, n)
		if n == 0 {
			return s, nil
		}
		return s, unsafe.Pointer(&s[0])
	}
	ci.copyN = func(dst, src unsafe.Pointer, n int) {
		copy(unsafe.Slice((*T)(dst), n), unsafe.Slice((*T)(src), n))
	}
	ci.zeroN = func(dst unsafe.Pointer, n int) {
		clear(unsafe.Slice((*T)(dst), n))
	}
	ci.alloc = func() unsafe.Pointer { return unsafe.Pointer(new(T)) }
	return ci
}

func reflectInfo(t reflect.Type) compInfo {
	ci := compInfo{Info: Info{Type: t, Size: t.Size()}, hasPtr: hasPointers(t)}
	ci.makeSlice = func(n int) (any, unsafe.Pointer) {
		s := reflect.MakeSlice(reflect.SliceOf(t), n, n)
		if n == 0 {
			return s.Interface(), nil
		}
		return s.Interface(), s.Index(0).Addr().UnsafePointer()
	}
	size := t.Size()
	if !ci.hasPtr {
		ci.copyN = func(dst, src unsafe.Pointer, n int) {
			copy(unsafe.Slice((*byte)(dst), uintptr(n)*size), unsafe.Slice((*byte)(src), uintptr(n)*size))
		}
		ci.zeroN = func(dst unsafe.Pointer, n int) {
			clear(unsafe.Slice((*byte)(dst), uintptr(n)*size))
		}
	} else {
		ci.copyN = func(dst, src unsafe.Pointer, n int) {
			for i := 0; i < n; i++ {
				off := uintptr(i) * size
				reflect.NewAt(t, unsafe.Add(dst, off)).Elem().Set(reflect.NewAt(t, unsafe.Add(src, off)).Elem())
			}
		}
		zero := reflect.Zero(t)
		ci.zeroN = func(dst unsafe.Pointer, n int) {
			for i := 0; i < n; i++ {
				reflect.NewAt(t, unsafe.Add(dst, uintptr(i)*size)).Elem().Set(zero)
			}
		}
	}
	ci.alloc = func() unsafe.Pointer { return reflect.New(t).UnsafePointer() }
	return ci
}

func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}

func (w *World) register(name string, ci compInfo) (ID, error) {
	w.mutable("registering a component")
	if name == "" {
		return 0, fmt.Errorf("ecs: register %v: empty component name", ci.Type)
	}
	if _, ok := w.byName[name]; ok {
		return 0, fmt.Errorf("ecs: register %q: %w", name, ErrDuplicateName)
	}
	if len(w.comps) >= MaxComponents {
		return 0, fmt.Errorf("ecs: register %q: a World holds at most %d components (MaxComponents)", name, MaxComponents)
	}
	id := ID(len(w.comps))
	ci.ID = id
	ci.Name = name
	w.comps = append(w.comps, ci)
	w.byName[name] = id
	for _, t := range w.tables {
		t.colIndex = append(t.colIndex, absentColumn)
	}
	w.compCols = append(w.compCols, nil)
	w.changes = append(w.changes, 0)
	w.compObs = append(w.compObs, [numEvents][]observerEntry{})
	return id, nil
}

// Register registers the Go type T as a component named name and returns
// the typed accessor ([Map]) for it. A Go type may back several components
// under different names (position and velocity can both be a vector
// type); each registration is a distinct component. A name already taken
// is an error wrapping [ErrDuplicateName].
func Register[T any](w *World, name string) (Map[T], error) {
	id, err := w.register(name, typedInfo[T]())
	if err != nil {
		return Map[T]{}, err
	}
	return Map[T]{w: w, id: id}, nil
}

// MustRegister is like [Register] but panics on error. It suits program
// setup, where a duplicate name is a programming mistake.
func MustRegister[T any](w *World, name string) Map[T] {
	m, err := Register[T](w, name)
	if err != nil {
		panic(err)
	}
	return m
}

// RegisterTag registers a zero-size component: a tag that takes no
// per-entity storage ([Info.IsTag]).
func (w *World) RegisterTag(name string) (ID, error) {
	return w.register(name, typedInfo[struct{}]())
}

// RegisterType registers a component whose Go type is only known at run
// time (for example a [reflect.StructOf] built from a schema). Its values
// are stored packed like any other component's. The type may be at most
// [MaxRuntimeSize] bytes.
func (w *World) RegisterType(name string, t reflect.Type) (ID, error) {
	if t == nil {
		return 0, fmt.Errorf("ecs: register %q: nil type", name)
	}
	if t.Size() > MaxRuntimeSize {
		return 0, fmt.Errorf("ecs: register %q: %v is %d bytes, over the %d-byte limit of run-time components (MaxRuntimeSize)", name, t, t.Size(), MaxRuntimeSize)
	}
	return w.register(name, reflectInfo(t))
}

// MaxRuntimeSize is the largest per-entity size, in bytes, of a component
// registered with [World.RegisterType] or [World.RegisterBytes], whose
// type comes from data rather than from the program ([Register] has no
// limit).
const MaxRuntimeSize = 1 << 20

// RegisterBytes registers a component by size and alignment only: size
// bytes per entity (at most [MaxRuntimeSize]), aligned to align (1, 2, 4
// or 8), holding no Go pointers. Size 0 registers a tag
// ([World.RegisterTag]).
func (w *World) RegisterBytes(name string, size, align uintptr) (ID, error) {
	if size == 0 {
		return w.RegisterTag(name)
	}
	if size > MaxRuntimeSize {
		return 0, fmt.Errorf("ecs: register %q: size %d is over the %d-byte limit of run-time components (MaxRuntimeSize)", name, size, MaxRuntimeSize)
	}
	var elem reflect.Type
	switch align {
	case 1:
		elem = reflect.TypeOf(uint8(0))
	case 2:
		elem = reflect.TypeOf(uint16(0))
	case 4:
		elem = reflect.TypeOf(uint32(0))
	case 8:
		elem = reflect.TypeOf(uint64(0))
	default:
		return 0, fmt.Errorf("ecs: register %q: alignment %d is not 1, 2, 4 or 8", name, align)
	}
	n := (size + align - 1) / align
	return w.register(name, reflectInfo(reflect.ArrayOf(int(n), elem)))
}

// ComponentID returns the [ID] of the component registered under name,
// and false if there is none.
func (w *World) ComponentID(name string) (ID, bool) {
	id, ok := w.byName[name]
	return id, ok
}

// ComponentInfo returns the description ([Info]) of a registered
// component, and false if id is not registered.
func (w *World) ComponentInfo(id ID) (Info, bool) {
	if int(id) >= len(w.comps) {
		return Info{}, false
	}
	return w.comps[id].Info, true
}

// NumComponents returns the number of registered components; IDs run from
// 0 to NumComponents()-1.
func (w *World) NumComponents() int { return len(w.comps) }

// Map is the typed accessor of one component: get, set, add and remove
// values of type T on entities ([Map.Get], [Map.Set], [Map.Add],
// [Map.Remove]). [Register] returns one, and [NewMap] makes one for a
// component registered otherwise. It is a small value; copy it freely.
// Typed filters ([NewFilter1] to [NewFilter8]) and builders ([NewBuilder1]
// to [NewBuilder8]) take Maps.
type Map[T any] struct {
	w  *World
	id ID
}

// NewMap returns the typed accessor ([Map]) of the component id. It panics
// if id is not registered or its type ([Info.Type]) is not T.
func NewMap[T any](w *World, id ID) Map[T] {
	if int(id) >= len(w.comps) {
		panic(fmt.Sprintf("ecs: NewMap: component %d is not registered", id))
	}
	if want := reflect.TypeOf((*T)(nil)).Elem(); w.comps[id].Type != want {
		panic(fmt.Sprintf("ecs: NewMap: component %q holds %v, not %v", w.comps[id].Name, w.comps[id].Type, want))
	}
	return Map[T]{w: w, id: id}
}

// ID returns the component's [ID].
func (m Map[T]) ID() ID { return m.id }

// World returns the [World] the accessor belongs to.
func (m Map[T]) World() *World { return m.w }

// Get returns a pointer to e's value of the component, or nil if e is
// stale or does not have it. The pointer is valid until the next
// structural change of the [World]; writes through it are not observed
// (use [Map.Set], or [World.MarkChanged] after writing, to notify
// observers and count the change).
func (m Map[T]) Get(e Entity) *T {
	w := m.w
	if uint(e.index) >= uint(len(w.records)) {
		return nil
	}
	r := w.records[e.index]
	cols := w.compCols[m.id]
	if r.gen == e.gen && e.world == w.tag && uint(r.table) < uint(len(cols)) {
		if c := cols[r.table]; c != nil {
			return (*T)(unsafe.Add(c.base, uintptr(r.row)*c.size))
		}
	}
	return nil
}

// Has reports whether e is alive and has the component.
func (m Map[T]) Has(e Entity) bool { return m.w.Has(e, m.id) }

// Set sets e's value of the component, adding the component if e does not
// have it yet (an add is deferred while a query iterates). Observers see
// [ComponentSet], or [ComponentAdded] for an add, as with [World.SetPtr].
func (m Map[T]) Set(e Entity, v T) error {
	w := m.w
	w.mutable("Map.Set")
	if r := w.rec(e); r != nil && w.nobs == 0 {
		if c := w.tables[r.table].col(m.id); c != nil {
			*(*T)(c.ptr(r.row)) = v
			w.changes[m.id]++
			return nil
		}
	}
	return m.setSlow(e, v)
}

//go:noinline
func (m Map[T]) setSlow(e Entity, v T) error {
	return m.w.SetPtr(e, m.id, unsafe.Pointer(&v))
}

// Add adds the component to e with value v; it is an error
// ([ErrHasComponent]) if e already has it.
func (m Map[T]) Add(e Entity, v T) error {
	w := m.w
	w.mutable("Map.Add")
	if r := w.rec(e); r != nil && w.locks == 0 && w.nobs == 0 && len(w.cmds) == 0 {
		from := w.tables[r.table]
		if !from.has(m.id) {
			to := w.tableWith(from, m.id)
			w.move(e, r, from, to)
			*(*T)(to.col(m.id).ptr(r.row)) = v
			w.changes[m.id]++
			w.version++
			return nil
		}
	}
	return m.addSlow(e, v)
}

//go:noinline
func (m Map[T]) addSlow(e Entity, v T) error {
	return m.w.AddPtr(e, m.id, unsafe.Pointer(&v))
}

// Remove removes the component from e, as [World.Remove] does.
func (m Map[T]) Remove(e Entity) error { return m.w.Remove(e, m.id) }

// zeroBase is where pointers to tag values point.
var zeroBase struct{}

// ComponentName returns the name of component id, or "" if it is not
// registered. [World.ComponentID] maps a name back to its [ID].
func (w *World) ComponentName(id ID) string {
	if int(id) >= len(w.comps) {
		return ""
	}
	return w.comps[id].Name
}
