package behaviour_test

import (
	"errors"
	"testing"

	"github.com/scenecs/scenecs/components"
	. "github.com/scenecs/scenecs/components/behaviour"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// fuzzRegistry is a Registry with the built-ins and a component with an
// int, a string and a vector, against which fuzzed values compile.
func fuzzRegistry(t testing.TB) *registry.Registry {
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewSchema([]registry.PropSpec{{Name: "hp", Type: "int"}, {Name: "text", Type: "string"}, {Name: "dir", Type: "vec3"}}, reg.Types())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Declare("health", s); err != nil {
		t.Fatal(err)
	}
	return reg
}

// checkSyntaxError fails if err is not a ValueError placed inside text.
func checkSyntaxError(t *testing.T, text string, err error) {
	var ve *registry.ValueError
	if !errors.As(err, &ve) {
		t.Fatalf("%q: error %T %v, not a *registry.ValueError", text, err, err)
	}
	if ve.Offset < 0 || ve.Offset > len(text) || ve.Expected == "" {
		t.Fatalf("%q: error %v at offset %d, outside the text", text, err, ve.Offset)
	}
}

// FuzzOnSyntax: any text either parses, prints and parses back to the
// same handler, which compiles or fails with an error inside the text,
// or fails with an error inside the text; nothing panics.
func FuzzOnSyntax(f *testing.F) {
	for _, tc := range OnSyntaxTexts() {
		f.Add(tc)
	}
	f.Add("event: hit; if: health.hp > detail.damage ?? 1; set: health.hp = health.hp - 1, position.y = 2; emit: hurt with {hp: health.hp}")
	f.Add("event: a; target: #x; spawn: p at position + vec3(0, 1, 0); start: animation__open")
	typ := OnType()
	reg := fuzzRegistry(f)
	env := RegEnv(reg)
	f.Fuzz(func(t *testing.T, text string) {
		v, err := typ.Parse(text, OnSpec{})
		if err != nil {
			checkSyntaxError(t, text, err)
			return
		}
		printed := typ.Print(v)
		back, err := typ.Parse(printed, OnSpec{})
		if err != nil || !typ.Equal(v, back) || ItemsString(back.(OnSpec)) != ItemsString(v.(OnSpec)) {
			t.Fatalf("%q printed as %q reads back as %q, %v", text, printed, ItemsString(back.(OnSpec)), err)
		}
		if _, err := CompileOn(v.(OnSpec), "on__x", env); err != nil {
			var pe *registry.PropError
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(text) {
				t.Fatalf("%q: compile error %v, not placed in the text", text, err)
			}
		}
	})
}

// FuzzBindSyntax is FuzzOnSyntax for bind.
func FuzzBindSyntax(f *testing.F) {
	for _, s := range []string{"position.y: sin(time * 2) * 3", "position.y: a ? 1 : 2; color: 'x;y'", "visible: (let t = time; t > 1)",
		"health.hp: health.hp + 1; health.dir: health.dir * 2; health.text: string(time)", "a: (1; b: 2", "position.y"} {
		f.Add(s)
	}
	typ := BindType()
	env := RegEnv(fuzzRegistry(f))
	f.Fuzz(func(t *testing.T, text string) {
		v, err := typ.Parse(text, BindSpec{})
		if err != nil {
			checkSyntaxError(t, text, err)
			return
		}
		printed := typ.Print(v)
		back, err := typ.Parse(printed, BindSpec{})
		if err != nil || !typ.Equal(v, back) || BindItems(back.(BindSpec)) != BindItems(v.(BindSpec)) {
			t.Fatalf("%q printed as %q reads back as %v, %v", text, printed, back, err)
		}
		if _, err := CompileBind(v.(BindSpec), env); err != nil {
			var pe *registry.PropError
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(text) {
				t.Fatalf("%q: compile error %v, not placed in the text", text, err)
			}
		}
	})
}
