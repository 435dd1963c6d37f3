package expr

import (
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
)

// MaxComps is the number of component pointers a [Frame] carries.
const MaxComps = 8

// Frame is what one evaluation reads: the host fills it, the compiled
// closures and the host's own accessors ([Var]) read it. A host keeps one
// Frame per loop (or per goroutine) and refills it for each evaluation,
// so evaluating allocates nothing.
//
// The fields time, dt, event and detail back the names of [FrameNames].
// Entity, Host and Comp are for the host's accessors: expr itself never
// reads them, except for a [Field] variable, which it reads from Comp.
type Frame struct {
	// Entity is the entity the expression is evaluated for.
	Entity ecs.Entity
	// Time is the scene time in seconds (ticks times the fixed step).
	Time float64
	// Dt is the current tick's step in seconds.
	Dt float64
	// Event is the name of the event being handled, or "".
	Event string
	// Detail is the event's detail: a map[string]any decoded from JSON,
	// a Go value passed to an Emit, or nil.
	Detail any
	// Host is the host's own context (a registry, a World), opaque to expr.
	Host any
	// Comp holds pointers to component values of Entity that the host has
	// looked up for this evaluation, in the slots its [Resolver] handed
	// out at compile time (see [Field]). A loop over a query fills them
	// from the query's columns, so that an accessor reads a field with one
	// load.
	Comp [MaxComps]unsafe.Pointer

	err error
	// mem and items are what the current evaluation has made: bytes of
	// strings and list items, against MaxBytes and MaxItems.
	mem, items int
}

// Fail records err as the frame's error, unless an error is recorded
// already: the first error of an evaluation is the one reported. Compiled
// closures call it for run-time errors (a dynamic value of the wrong type,
// a modulo by zero) and return a zero value; host accessors may call it
// too (the entity lacks the component).
func (f *Frame) Fail(err error) {
	if f.err == nil {
		f.err = err
	}
}

// Err returns the first error recorded since the last [Frame.Reset]. A
// loop may evaluate many times and check Err once at the end: the error is
// sticky.
func (f *Frame) Err() error { return f.err }

// Reset clears the frame's error.
func (f *Frame) Reset() { f.err = nil }
