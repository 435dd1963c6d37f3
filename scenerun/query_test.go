package scenerun

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/selector"
)

// TestSelectorError: a selector syntax error prints alone as
// "selector:1:COL: message" however it is wrapped, found by its type;
// any other error prints whole, even one whose text says "selector:".
// All are usage errors.
func TestSelectorError(t *testing.T) {
	se := &selector.Error{Col: 4, Msg: "expected ']', found end of input"}
	rt, err := (&cli{}).newRuntime(0)
	if err != nil {
		t.Fatal(err)
	}
	_, compileErr := rt.reg.QueryAll("[health.hp<")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"bare", se, "selector:1:4: expected ']', found end of input"},
		{"wrapped", fmt.Errorf("registry: system %q: %w", "aim", se), "selector:1:4: expected ']', found end of input"},
		{"wrapped twice", fmt.Errorf("query: %w", fmt.Errorf("compile: %w", se)), "selector:1:4: expected ']', found end of input"},
		{"from the registry", compileErr, "selector:1:12: expected value after '<', found end of input"},
		{"not a syntax error", errors.New("registry: no selector engine set"), "registry: no selector engine set"},
		{"says selector: in its text", errors.New("engine: selector: cache full"), "engine: selector: cache full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("no error to convert")
			}
			var ue *usageError
			if got := selectorError(tc.err); !errors.As(got, &ue) || !ue.raw || ue.msg != tc.want {
				t.Fatalf("selectorError(%q) = %#v, want a raw usage error %q", tc.err, got, tc.want)
			}
			if strings.Contains(tc.want, "selector:1:") && !errors.As(tc.err, new(*selector.Error)) {
				t.Fatalf("%v is not a *selector.Error", tc.err)
			}
		})
	}
}
