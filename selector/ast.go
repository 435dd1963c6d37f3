// This file defines the syntax tree produced by Parse. Every node records
// the 1-based byte column where it starts in the source (see Pos), so later
// stages (the compiler) can report errors that point into the selector.

package selector

// Pos is the position of a node in the selector source: Col is the 1-based
// byte column of the node's first byte (0 when unknown, e.g. for a node
// built by hand). Pos is embedded in every node.
type Pos struct {
	Col int
}

// Position returns p; it is promoted to every node that embeds Pos.
func (p Pos) Position() Pos { return p }

// Node is implemented by every syntax tree node.
type Node interface {
	Position() Pos
}

// SelectorList is a comma-separated list of complex selectors. An entity
// matches the list if it matches any member. Lists are unforgiving: one
// invalid member makes the whole list invalid.
type SelectorList struct {
	Pos
	Selectors []*Complex // at least one
}

// Complex is a chain of compound selectors joined by combinators, read
// left to right as in CSS; the last compound is the subject.
type Complex struct {
	Pos
	Compounds []*Compound // at least one
}

// Combinator relates a compound selector to the one before it.
type Combinator int

// Combinators. A Compound's Combinator relates it to the previous
// compound in its Complex. The first compound of a complex selector has
// NoCombinator, except inside :has(), where it holds the relative
// selector's leading combinator (Descendant when none is written).
const (
	NoCombinator      Combinator = iota // first compound of a non-relative selector
	Descendant                          // "a b": b is a descendant of a
	Child                               // "a > b": b is a child of a
	NextSibling                         // "a + b": b immediately follows a
	SubsequentSibling                   // "a ~ b": b follows a, same parent
)

// String returns the combinator's symbol: "", " ", ">", "+" or "~".
func (c Combinator) String() string {
	switch c {
	case Descendant:
		return " "
	case Child:
		return ">"
	case NextSibling:
		return "+"
	case SubsequentSibling:
		return "~"
	}
	return ""
}

// Compound is a sequence of simple selectors that all apply to the same
// entity, such as `*.enemy[health.hp<5]:not(.boss)`.
type Compound struct {
	Pos
	// Combinator relates this compound to the previous one in the
	// Complex (see the Combinator constants).
	Combinator Combinator
	// Universal is true if the compound was written with an explicit `*`.
	// Entities have no type, so `*` matches everything; it is kept only so
	// that printing reproduces the source.
	Universal bool
	// Simples holds the simple selectors in source order; it may be empty
	// only when Universal is true.
	Simples []Simple
}

// Simple is a simple selector: *ID, *Class, *Attr or *Pseudo.
type Simple interface {
	Node
	simple()
}

// ID is `#name`: the entity's id equals Name. Unlike CSS, the name may
// start with a digit (`#1`), since scene ids are free-form.
type ID struct {
	Pos
	Name string // unescaped
}

// Class is `.name`: the entity's class list contains Name.
type Class struct {
	Pos
	Name string // unescaped
}

// Op is an attribute selector operator.
type Op int

// Attribute operators. OpExists tests presence only. The string operators
// have their CSS meaning; OpNe (an extension) means "present and not
// equal". The numeric operators (an extension) compare as numbers and
// always have a Numeric value.
const (
	OpExists    Op = iota // [comp] or [comp.prop]
	OpEq                  // =
	OpNe                  // != (extension)
	OpIncludes            // ~= whitespace-separated list contains value
	OpDashMatch           // |= equals value or starts with value + "-"
	OpPrefix              // ^=
	OpSuffix              // $=
	OpSubstring           // *=
	OpLt                  // < (extension, numeric)
	OpLe                  // <= (extension, numeric)
	OpGt                  // > (extension, numeric)
	OpGe                  // >= (extension, numeric)
)

var opStrings = [...]string{
	OpExists: "", OpEq: "=", OpNe: "!=", OpIncludes: "~=", OpDashMatch: "|=",
	OpPrefix: "^=", OpSuffix: "$=", OpSubstring: "*=",
	OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
}

// String returns the operator's symbol ("" for [OpExists]).
func (o Op) String() string {
	if o >= 0 && int(o) < len(opStrings) {
		return opStrings[o]
	}
	return "?"
}

// IsNumeric reports whether o is one of the numeric comparison operators
// < <= > >=.
func (o Op) IsNumeric() bool { return o >= OpLt && o <= OpGe }

// Flag is the optional case-sensitivity flag of an attribute selector.
type Flag int

// Attribute flags. They are only accepted with non-numeric operators.
const (
	FlagNone Flag = iota // no flag written
	FlagI                // ` i`: compare ASCII case-insensitively
	FlagS                // ` s`: compare case-sensitively (the default)
)

// String returns "", "i" or "s".
func (f Flag) String() string {
	switch f {
	case FlagI:
		return "i"
	case FlagS:
		return "s"
	}
	return ""
}

// Attr is an attribute (component) selector:
//
//	[comp]                  Comp only, Op == OpExists
//	[comp.prop]             presence of the component (Prop is kept)
//	[comp=value]            single-property component compared whole
//	[comp.prop OP value]    one property (or vector axis, `position.y`)
//	[comp.prop.axis OP v]   an axis of a vector property (`world.position.y`)
//
// Comp may contain `__` (multiple-instance components, `sound__1`).
type Attr struct {
	Pos
	Comp string // component name, unescaped
	Prop string // property name, "prop.axis" for an axis, "" if none
	Op   Op
	// Value is the operand, with quotes removed and escapes resolved; ""
	// for OpExists.
	Value string
	// Numeric is true if Value was written as a bare number (such as 10,
	// -1.5, .5, +3 or 1e3); Value then holds the number's source text,
	// which strconv.ParseFloat accepts. Numeric operators require it.
	Numeric bool
	// Ref is true if Value was written `#id` ([docked=#p1]): the entity
	// whose id is Value, for a property that holds references to entities
	// (see [Relations]). Only with [OpEq] and no flag.
	Ref bool
	// Var is true if Value was written `$name` ([faction=$f]): the query
	// variable Value (see docs/selectors.md and [CompileOptions]). Only
	// with [OpEq] and no flag.
	Var  bool
	Flag Flag
}

// Pseudo is a pseudo-class. Name is written without the colon and is one
// of:
//
//	root empty first-child last-child only-child scope   (no argument)
//	not is where has                                     (List set)
//	nth-child nth-last-child                             (Nth set; List set for "of S")
//	to from                                              (Rel and List set)
//
// For "to" and "from", Rel is the relation REL as written in
// `:to(REL, list)`: a component name or `comp.prop`; RelPos is its
// position.
//
// For "has", List holds relative selectors: each Complex's first
// Compound carries the leading combinator (Descendant if none was
// written). :has() never appears inside another :has().
type Pseudo struct {
	Pos
	Name   string
	List   *SelectorList // argument list, or the "of S" list; nil otherwise
	Nth    *Nth          // An+B for nth-child / nth-last-child; nil otherwise
	Rel    string        // the relation of :to and :from; "" otherwise
	RelPos Pos           // where Rel starts
}

// Nth is an An+B expression: it matches positions A*n+B (1-based) for
// some integer n >= 0. `odd` is {2, 1}, `even` is {2, 0}. A and B fit in
// an int32.
type Nth struct {
	Pos
	A, B int
}

func (*ID) simple()     {}
func (*Class) simple()  {}
func (*Attr) simple()   {}
func (*Pseudo) simple() {}
