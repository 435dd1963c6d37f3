package behaviour

import "github.com/scenecs/scenecs/ecs"

// What the external tests (package behaviour_test, which register the
// built-ins through package components) reach inside.

var (
	OnType          = onType
	BindType        = bindType
	ItemsString     = itemsString
	RegEnv          = regEnv
	CompileOn       = compileOn
	CompileBind     = compileBind
	LoopExpected    = loopExpected
	MaxFiresPerTick = maxFiresPerTick
)

// Step and Flush run the animations' parts of a behaviour tick.
func (a *Animations) Step(dt float64) { a.step(dt) }
func (a *Animations) Flush()          { a.flush() }

// States returns the number of run states and indexed animations.
func (a *Animations) States() (runs, indexed int) { return len(a.runs), len(a.index) }

// Step runs the bindings' part of a behaviour tick.
func (bs *Bindings) Step() { bs.step() }

// Batches returns the number of batches, of loose runs and of runs in
// the first batch.
func (bs *Bindings) Batches() (batches, loose, first int) {
	if len(bs.batches) > 0 {
		first = len(bs.batches[0].runs)
	}
	return len(bs.batches), bs.nLoose, first
}

// TickClock counts a tick of the scene clock; Now reads it.
func (b *Builtins) TickClock(dt float64) { b.clock.t += dt; b.clock.dt = dt }
func (b *Builtins) Now() float64         { return b.clock.now() }

// ReportMoves makes the runtimes report their column writes to moved and
// movedPos instead of to the transform state.
func (b *Builtins) ReportMoves(moved, movedPos func(*ecs.Filter)) {
	b.host.Moved, b.host.MovedPositions = moved, movedPos
}

// OnSyntaxTexts returns the texts of the on syntax cases (onspec_test.go),
// as seeds of the fuzz test.
func OnSyntaxTexts() []string {
	var out []string
	for _, tc := range onSyntaxCases {
		out = append(out, tc.text)
	}
	return out
}

// BindItems returns the number of a bind spec's items.
func BindItems(s BindSpec) int { return len(s.items) }
