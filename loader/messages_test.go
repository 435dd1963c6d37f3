package loader

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// TestIDMessages: an empty id says it is empty, white space says "no
// spaces", control characters say so, in every spelling.
func TestIDMessages(t *testing.T) {
	for _, tc := range []struct{ file, src, want string }{
		{"a.yaml", "entities:\n  - id: \"\"\n", `a.yaml:2:9: empty entity id (leave the id out for none)`},
		{"a.yaml", "entities:\n  - id: ''\n", `a.yaml:2:9: empty entity id (leave the id out for none)`},
		{"a.yaml", "entities:\n  - id: \"a b\"\n", `a.yaml:2:9: invalid entity id "a b" (no spaces allowed)`},
		{"a.yaml", "entities:\n  - id: \"a\\tb\"\n", `a.yaml:2:9: invalid entity id "a\tb" (no spaces allowed)`},
		{"a.yaml", "entities:\n  - id: \"a\\x01\"\n", `a.yaml:2:9: invalid entity id "a\x01" (no control characters allowed)`},
		{"a.yaml", "mixins:\n  \"\": {}\n", `a.yaml:2:3: empty mixin id (leave the id out for none)`},
		{"a.yaml", "mixins:\n  \"a b\": {}\n", `a.yaml:2:3: invalid mixin id "a b" (no spaces allowed)`},
		{"a.yaml", "entities:\n  - class: [a, \"\"]\n", `a.yaml:2:16: class: invalid name "" (it is empty)`},
		{"a.xml", "<scene><entity id=\"\"/></scene>", `a.xml:1:20: empty entity id (leave the id out for none)`},
		{"a.xml", "<scene><entity id=\" \"/></scene>", `a.xml:1:20: invalid entity id " " (no spaces allowed)`},
		{"a.xml", "<scene><mixin id=\"\"/></scene>", `a.xml:1:19: empty mixin id (leave the id out for none)`},
		{"a.json", `{"entities":[{"id":"","path":"0","parent":null,"class":[],"components":{}}]}`, `a.json:1:20: empty entity id (leave the id out for none)`},
	} {
		_, err := scenefile.Read(tc.file, []byte(tc.src), scenefile.Limits{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\ngot  %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestFailedDeclarationDoesNotCascade: a declaration that does not
// compile is reported once; its uses, with or without a value, in
// entities and mixins, add nothing.
func TestFailedDeclarationDoesNotCascade(t *testing.T) {
	for _, tc := range []struct{ file, src, want string }{
		{"a.yaml", "components:\n  hp: {type: nosuch}\n  mana: {x: {type: int, default: abc}}\nmixins:\n  m: {hp: 3, mana: \"x: 1\"}\nentities:\n  - hp: 5\n    mana:\n  - hp:\n    mana: {x: 2}\n  - hp__a: 1\n",
			"a.yaml:2:3: component \"hp\": "},
		{"a.xml", "<scene><components><component name=\"hp\" type=\"nosuch\"/></components><entity hp=\"5\"/><entity hp=\"\"/></scene>",
			"a.xml:1:37: component \"hp\": "},
	} {
		reg := newTestRegistry(t)
		_, err := LoadBytes(reg, tc.file, []byte(tc.src), Options{})
		list, _ := err.(scenefile.ErrorList)
		wantN := strings.Count(tc.src, "type: nosuch") + strings.Count(tc.src, "default: abc") + strings.Count(tc.src, "type=\"nosuch\"")
		if len(list) != wantN || !strings.HasPrefix(list[0].Error(), tc.want) {
			t.Errorf("%s: want %d errors, the first %q...; got\n%v", tc.file, wantN, tc.want, err)
		}
	}
}

// TestForgotBuiltins: a program that did not register the built-ins gets
// one error naming every built-in the scene uses, at the first use, with
// the hint; other unknown names are still reported on their own.
func TestForgotBuiltins(t *testing.T) {
	src := "scene:\n  physics: \"step: 0.01\"\nentities:\n" +
		"  - position: 1 2 3\n    rotation: 0 90 0\n    scale: 2 2 2\n    visible:\n    velocity: 1 0 0\n    helth: 3\n" +
		"  - position: 4 5 6\n    spin: \"speed: 4\"\n    acceleration: 0 0 1\n    gravity: 0 -1 0\n    lifetime: \"seconds: 2\"\n"
	reg := registry.New(ecs.NewWorld())
	_, err := LoadBytes(reg, "a.yaml", []byte(src), Options{Builtins: components.Names()})
	want := "a.yaml:2:3: built-in components and systems are not registered (physics, position, rotation, scale, velocity, spin, acceleration, gravity, lifetime, visible): the program must call components.Register\n" +
		"a.yaml:9:5: unknown component \"helth\""
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	// Tags alone that happen to be built-in names are fine without the
	// built-ins: they are tags.
	reg = registry.New(ecs.NewWorld())
	if _, err := LoadBytes(reg, "b.yaml", []byte("entities:\n  - visible:\n"), Options{Builtins: components.Names()}); err != nil {
		t.Errorf("a tag named like a built-in: %v", err)
	}
	// A program that does not say which names are built-in gets each
	// unknown name on its own.
	reg = registry.New(ecs.NewWorld())
	_, err = LoadBytes(reg, "a.yaml", []byte(src), Options{})
	if list, ok := err.(scenefile.ErrorList); !ok || len(list) != 11 || list[0].Error() != `a.yaml:2:3: unknown system "physics"` {
		t.Errorf("without Builtins: %v", err)
	}
}
