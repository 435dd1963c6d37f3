package plan

import (
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Values written as lists. A scene may write the value of an array
// property as a list ([scenefile.ListValue]: `items: [x, "y z"]` in
// YAML, an array in JSON): the whole value of a single-property
// component whose property is an array, a property's value in a mapping,
// a declaration's default. Its text, which is what is parsed, is the
// items joined by ", " (A-Frame's text of an array); so an item that
// text cannot say is refused at the item: one holding a ',' (it would
// read as two items), one with white space at an end (items are
// trimmed), and the lone empty item of [""] (the empty text is the empty
// array). A list anywhere else is refused at the value.
//
// Compile records which properties the scene writes as lists in
// Plan.Lists, so that a dump of the scene (export.Options.Lists) writes
// them as lists again.

// isArray reports whether p is of the registry's array type, or a list
// of references (entities), whose items are written the same way.
func (c *compiler) isArray(p *registry.Property) bool {
	if p.Type != nil && p.Type.Name == "entities" {
		return true
	}
	if c.arrType != nil {
		return p.Type == c.arrType
	}
	return p.Type != nil && p.Type.Name == "array"
}

// checkLists reports the values comp writes as lists where no list is
// written (anything but an array property) and the items their text
// cannot say; it returns false if there was any. It records the lists
// that are fine in the plan's Lists.
func (c *compiler) checkLists(comp *scenefile.ComponentSpec, s *registry.Schema) bool {
	ok := true
	if comp.List != nil {
		switch {
		case s.IsTag():
			c.errs.add(comp.ValuePos(), "%s: a list is written only for an array property, and %s has no properties", comp.Name, comp.Name)
			ok = false
		case !s.Single():
			c.errs.add(comp.ValuePos(), "%s: a list is written only for an array property, and %s has several properties%s", comp.Name, comp.Name, c.mappingHint(comp.Name, s))
			ok = false
		case !c.isArray(&s.Props[0]):
			c.errs.add(comp.ValuePos(), "%s: a list is written only for an array property, not for a value of type %s", comp.Name, s.Props[0].Type.Name)
			ok = false
		default:
			ok = c.checkItems(comp.Name, comp.List, comp.ValuePos()) && ok
			c.listed(comp.Name, "", comp.List)
		}
	}
	if comp.Kind != scenefile.ValueMap {
		return ok
	}
	for _, kv := range comp.Map {
		if kv.List == nil {
			continue
		}
		what := fmt.Sprintf("%s: property %q", comp.Name, kv.Key)
		idx, known := s.Lookup(strings.TrimSpace(kv.Key))
		switch {
		case s.Single() && !s.TakesMap():
			c.errs.add(kv.ValuePos(), "%s: a list is written only for an array property, not for an axis of a vector", what)
			ok = false
		case !known || s.TakesMap():
			// An unknown property (parsing says so) or a type that reads
			// the mapping itself (which its ParseMap judges).
		case !c.isArray(&s.Props[idx]):
			c.errs.add(kv.ValuePos(), "%s: a list is written only for an array property, not for a value of type %s", what, s.Props[idx].Type.Name)
			ok = false
		default:
			ok = c.checkItems(what, kv.List, kv.ValuePos()) && ok
			c.listed(comp.Name, s.Props[idx].Name, kv.List)
		}
	}
	return ok
}

// mappingHint tells how to write a list for an array property of the
// component name of schema s, which has several: in a mapping.
func (c *compiler) mappingHint(name string, s *registry.Schema) string {
	for i := range s.Props {
		if c.isArray(&s.Props[i]) {
			return fmt.Sprintf(": write them as a mapping (%s: {%s: [a, b]})", name, s.Props[i].Name)
		}
	}
	return ", none of them an array"
}

// checkItems reports the items of l, the value of an array property
// (what names it in messages, at its value), that an array's text cannot
// say, and returns false if there was any.
func (c *compiler) checkItems(what string, l *scenefile.ListValue, at scenefile.Pos) bool {
	ok := true
	for i := range l.Items {
		if msg := itemProblem(l, i); msg != "" {
			p := l.Items[i].Pos
			if !p.IsValid() {
				p = at
			}
			c.errs.add(p, "%s: %s", what, msg)
			ok = false
		}
	}
	return ok
}

// itemProblem says why item i of l cannot be said in an array's text
// (A-Frame's "a, b, c"), or returns "".
func itemProblem(l *scenefile.ListValue, i int) string {
	t := l.Items[i].Text
	switch {
	case strings.Contains(t, ","):
		return fmt.Sprintf("list item %q holds a ',', which separates the items of an array (its text is %q): an item cannot hold one", t, l.Text())
	case strings.TrimSpace(t) != t:
		return fmt.Sprintf("list item %q starts or ends with white space, which the items of an array cannot keep (they are trimmed)", t)
	case t == "" && len(l.Items) == 1:
		return `a list of one empty item is not an array its text can say (the empty text is the empty array): write [] for an empty array`
	}
	return ""
}

// listed records that the scene writes property prop ("" for a
// single-property component's) of component (or system) name as the
// list l, unless l is implied by its place (a JSON dump's entities).
func (c *compiler) listed(name, prop string, l *scenefile.ListValue) {
	if c.plan == nil || l.Implied {
		return // ParseValue, or no news
	}
	base, _, _ := strings.Cut(name, "__")
	if c.plan.Lists == nil {
		c.plan.Lists = scenefile.Lists{}
	}
	c.plan.Lists[scenefile.ListKey{Component: base, Property: prop}] = true
}

// declListType returns the type the declaration pd gives its property:
// its Type, or "array" for one with no type whose default is a list.
func declListType(pd *scenefile.PropDecl) string {
	if pd.Type == "" && pd.DefaultList != nil {
		return "array"
	}
	return pd.Type
}

// checkDeclLists reports the defaults written as lists in declaration d,
// whose schema is s, where no list is written (a property not of type
// array) and the items their text cannot say; it returns false if there
// was any.
func checkDeclLists(d *scenefile.Decl, s *registry.Schema, errs *errorSink) bool {
	ok := true
	for i, pd := range d.Props {
		if pd.DefaultList == nil || i >= len(s.Props) {
			continue
		}
		what := fmt.Sprintf("component %q", d.Name)
		if pd.Name != "" {
			what = fmt.Sprintf("component %q: property %q", d.Name, pd.Name)
		}
		if t := s.Props[i].Type; t.Name != "array" {
			errs.add(orPos(pd.DefaultPos, pd.Pos), "%s: default: a list is written only for an array property, not for a value of type %s", what, t.Name)
			ok = false
			continue
		}
		for j := range pd.DefaultList.Items {
			if msg := itemProblem(pd.DefaultList, j); msg != "" {
				errs.add(orPos(pd.DefaultList.Items[j].Pos, pd.DefaultPos), "%s: default: %s", what, msg)
				ok = false
			}
		}
	}
	return ok
}

// orPos returns p, or q if p is not valid.
func orPos(p, q scenefile.Pos) scenefile.Pos {
	if p.IsValid() {
		return p
	}
	return q
}

// declLists records in lists the properties of the declared component d,
// whose schema is s, whose default d writes as a list.
func declLists(lists scenefile.Lists, d *scenefile.Decl, s *registry.Schema) scenefile.Lists {
	for i, pd := range d.Props {
		if pd.DefaultList != nil && i < len(s.Props) {
			if lists == nil {
				lists = scenefile.Lists{}
			}
			lists[scenefile.ListKey{Component: d.Name, Property: s.Props[i].Name}] = true
		}
	}
	return lists
}
