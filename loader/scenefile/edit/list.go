package edit

import (
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// Values written as lists. A YAML sequence, [x, "y z"] or a block
// sequence, is the value of an array (the only type that takes one, see
// scenefile.ListValue): setting it writes the new value's items (its
// text, "x, y z", cut as the array type cuts it) as the list's. With as
// many items as before, each item that changes is rewritten in place,
// in its quote style, and comments stay; else the list is written anew
// as a flow sequence, in place of a flow one, or after the key in place
// of a block one and the lines it takes.

// arrayItems cuts the text of an array into its items as the array type
// does: at each ',', each trimmed; none for blank text.
func arrayItems(text string) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	items := strings.Split(text, ",")
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	return items
}

// setList returns the ops that write text, the value of an array, into
// seq, the list written as the value of key k.
func (y *yamlEditor) setList(k, seq *yamlsyntax.Node, text string) ([]rawOp, error) {
	items := arrayItems(text)
	flow := y.isFlow(seq)
	if len(items) > 0 && len(items) == len(seq.Content) {
		var ops []rawOp
		for i, it := range seq.Content {
			s, err := y.scalar(it, y.indentOf(seq), flow)
			if err != nil {
				return nil, err
			}
			if s.style == styleNull {
				return nil, fmt.Errorf("%s: an empty item", y.pos(it))
			}
			if s.text != items[i] {
				ops = append(ops, s.rewrite(y.src, items[i]))
			}
		}
		return ops, nil
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(yamlValue(it, true))
	}
	b.WriteByte(']')
	if flow {
		return []rawOp{{int(seq.Off), int(seq.End), b.String()}}, nil
	}
	// From the end of the key: its ':' and the lines of the items.
	return []rawOp{{int(k.End), int(seq.End), ": " + b.String()}}, nil
}
