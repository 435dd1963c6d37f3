// Package expr is the expression language of scenes: conditions
// (`detail.damage > 3 && health.hp > 0`), computed values, per-tick
// bindings (`position.y: sin(time*2)*3`) and value predicates. It is small
// and safe: no I/O, no clock, no unseeded randomness, no loops of its own;
// every expression terminates, within limits on its size ([MaxSource],
// [MaxNodes]), and what one evaluation makes is bounded before it is
// made: [MaxBytes] of strings and [MaxItems] list items (an evaluation
// that would exceed one fails with an error wrapping [ErrBudget] instead
// of making what would exceed it). docs/expressions.md describes the
// language as a scene author reads it.
//
// # Concepts
//
//   - The syntax and the type checker are expr-lang/expr's (its parser,
//     ast, checker and conf packages), restricted to a deterministic set
//     of built-ins and extended with math and vector functions and the
//     vector operators (+ - * / on vec2, vec3, vec4).
//   - Names are resolved at compile time through a [Resolver] the host
//     implements: it maps a name or dotted path (`time`, `health.hp`,
//     `position.y`, `detail`) to a [Var], a kind plus a typed accessor
//     over the evaluation [Frame]. The longest prefix of a dotted path the
//     resolver knows wins; the rest are axes of a vector or fields of a
//     dynamic value. [FrameNames] resolves time, dt, event and detail;
//     [Chain] combines resolvers; [Vars] is a fixed set.
//   - A [Kind] is the type of a value: Bool, Int, Number (float64),
//     String, Vec2, Vec3, Vec4 (a [Vec]), or Dynamic, a value whose type is
//     known only at run time (an event's detail), checked where it is used.
//   - [Compile] turns the checked tree into typed Go closures over a
//     [Frame], a [Program]: func(*Frame) float64, func(*Frame) bool, and so
//     on, with constants folded. Evaluating them allocates nothing (but
//     for arithmetic between two dynamic values, and the interpreted
//     constructs below). A host takes the closure of the kind it needs
//     once ([Program.NumberFunc], [Program.BoolFunc]) and calls it per
//     entity or per event.
//   - A [Frame] is what one evaluation reads: the entity, the scene time
//     and step, the event's name and detail, an opaque host value, and
//     pointers to the entity's component values ([Frame.Comp]). A [Field]
//     variable reads a component field from those pointers inline, in the
//     closure that uses it, which is what makes a value predicate such as
//     `health.hp < 20` one closure call with one load.
//   - Errors are *[Error] values carrying the byte offset and length of the
//     offending text, so that a scene loader can report file:line:col
//     inside an attribute string. Run-time errors (a dynamic value of the
//     wrong type, a modulo by zero, a budget exceeded) are recorded in
//     the frame ([Frame.Fail], [Frame.Err]) and the closure returns a zero
//     value: they never panic. The first error of an evaluation, or of a
//     whole loop, is kept. Each call of a program's closure is one
//     evaluation for the budgets, whatever the loop around it.
//
// # For hosts
//
// A component that takes expressions compiles each one when its data is
// set, with the kind of what it feeds as want, and reports a compile
// error as an attribute error at [Error.Offset]:
//
//   - a condition: Compile(src, r, Bool), then [Program.EvalBool] for each
//     event delivered, with the frame's Event, Detail and Entity set;
//   - a value to set: Compile(src, r, kind of the property); a property of
//     a type the language has no kind for (a colour) compiles as String,
//     and the text is parsed as the attribute value would be;
//   - a binding: take [Program.NumberFunc] (or VecFunc, BoolFunc) once, call
//     it for every entity of the system's loop with Frame.Comp filled from
//     the query's columns, and check [Frame.Err] after the loop;
//     [Program.Const] and [Program.Names] tell what the value depends on;
//     for many entities at once, [Program.Batch] (when not nil) computes
//     up to [BatchSize] values per call, one loop per node of the
//     expression, from each entity's component pointers: the same values
//     as the closure, without its call per node and entity;
//   - a value predicate of a selector: a [Field] variable per `comp.prop`,
//     the predicate a BoolFunc called with the candidate's component
//     pointers in Frame.Comp.
//
// A registry-backed [Resolver] hands out a slot of Frame.Comp to each
// component an expression reads, in the order it is asked, and remembers
// which component each slot holds, so that the host knows what to put
// there: a query's column pointer in a loop, World.GetPtr for one entity.
// A Field variable reads its slot without checking it: the host must fill
// every slot the expression uses with a valid pointer.
//
// # What runs as closures
//
// Everything but these runs as closures: `let` bindings, list and map
// literals (other than the constant list of `x in [a, b]`), list functions
// (all, any, filter, map, count, sum, first, join, split, ...), slices,
// ranges (`1..5`), `matches` with a pattern that is not constant, and `in`
// on a list that is not constant. An expression using one of them runs on
// expr's VM instead ([Program.Interpreted] says which construct), with the
// same semantics but an allocation per evaluation.
//
// The language differs from expr-lang/expr where a scene needs it to:
// the clock functions (now, date, duration) and the functions of
// unordered results (keys, values) are left out; a `let` may not shadow a
// name of the scene; a dynamic value used as a number is converted to a
// float64, so that `detail.n * 2` is a number even when detail.n is an int.
package expr
