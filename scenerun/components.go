package scenerun

import (
	"fmt"
	"io"
	"strings"

	"github.com/scenecs/scenecs/registry"
)

const componentsUsage = `Usage: {prog} components

Lists the registered components and systems with their schemas.
`

func (c *cli) cmdComponents(args []string) error {
	stdout := c.stdout
	fs := c.newFlags("components", componentsUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("takes no arguments")
	}
	rt, err := c.newRuntime(0)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "components:")
	for _, c := range rt.reg.Components() {
		var notes []string
		if c.Multiple {
			notes = append(notes, "multiple")
		}
		if len(c.Dependencies) > 0 {
			notes = append(notes, "depends on "+strings.Join(c.Dependencies, ", "))
		}
		if c.HasTick() {
			notes = append(notes, "ticks")
		}
		if c.ReadOnly() {
			notes = append(notes, "read-only: "+c.Owner())
		}
		note := ""
		if len(notes) > 0 {
			note = "  (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintf(stdout, "  %s%s\n", c.Name, note)
		writeSchema(stdout, c.Schema)
	}
	fmt.Fprintln(stdout, "systems:")
	for _, s := range rt.reg.Systems() {
		fmt.Fprintf(stdout, "  %s\n", s.Name)
		writeSchema(stdout, s.Schema)
	}
	return nil
}

func writeSchema(w io.Writer, s *registry.Schema) {
	if s.IsTag() {
		fmt.Fprintln(w, "    (tag)")
		return
	}
	for i := range s.Props {
		p := &s.Props[i]
		name := p.Name
		if name == "" {
			name = "(value)"
		}
		line := fmt.Sprintf("    %-10s %-8s default %q", name, p.Type.Name, p.Type.Print(p.Default))
		if len(p.OneOf) > 0 {
			line += " oneOf " + strings.Join(p.OneOf, "|")
		}
		if p.Min != nil {
			line += fmt.Sprintf(" min %g", *p.Min)
		}
		if p.Max != nil {
			line += fmt.Sprintf(" max %g", *p.Max)
		}
		fmt.Fprintln(w, line)
	}
}
