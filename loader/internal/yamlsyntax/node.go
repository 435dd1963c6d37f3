package yamlsyntax

import (
	"bytes"
	"errors"
	"io"

	"gopkg.in/yaml.v3"
)

// Kind is the kind of a Node, numbered as yaml.v3 numbers them.
type Kind uint8

// The kinds of nodes.
const (
	Sequence = Kind(yaml.SequenceNode)
	Mapping  = Kind(yaml.MappingNode)
	Scalar   = Kind(yaml.ScalarNode)
	Alias    = Kind(yaml.AliasNode)
)

// Node is a node of a light syntax tree, built by [Parse], by
// [ParseReference] from a yaml.v3 tree, or by another reader of a format
// whose values are YAML's (JSON is YAML's subset).
//
// Off and End are the bytes [Off, End) of the input the node is written
// in, as Parse found them: a scalar as written (quotes included; a plain
// one over several lines from its first character to its last; a block
// scalar from its indicator to the end of its last line of content), a
// flow collection from its opening bracket to just after its closing
// one, a block collection from its first key or "-" to the end of its
// last value. A null written as nothing is the empty span where its
// value would be (just after the ':' of its key, or the "-" of its
// item). Spans nest as the tree does and siblings follow each other, so
// that an editor finds a value's bytes from the parser instead of
// reading the text again. Nodes from ParseReference have no span (0, 0):
// yaml.v3 gives none.
//
// A Node is 64 bytes: the properties only yaml.v3's trees can have
// (anchors, tags) are kept beside the tree ParseReference returns, not in
// every node.
type Node struct {
	Kind      Kind
	Null      bool    // a null scalar (~, null, nothing)
	Exact     bool    // a quoted scalar (in JSON: a string, not a number, boolean or null)
	Line, Col int32   // 1-based; the column in characters
	Off, End  int32   // the bytes the node is written in (see above)
	Value     string  // scalar text, or alias name
	Content   []*Node // mapping: keys and values alternating; sequence: items
}

// Extras are the properties of the nodes of a tree that only nodes read
// by yaml.v3 can have, by node (nil for a tree from Parse).
type Extras map[*Node]*Extra

// Extra holds the properties only nodes read by yaml.v3 can have.
type Extra struct {
	Tag    string // "!!merge" for <<, or an explicitly written tag
	Tagged bool   // the tag was written explicitly
	Anchor string
}

// MultiDocError reports a second document in a YAML file, at the
// position yaml.v3 gives it.
type MultiDocError struct{ Line, Col int }

func (e *MultiDocError) Error() string { return "several documents" }

// ParseReference parses data with yaml.v3 into a tree (nil for an empty
// file), with the anchors and tags of its nodes (nil if it has none). It
// refuses a second document with a *MultiDocError, and returns yaml.v3's
// own errors as they are.
func ParseReference(data []byte) (*Node, Extras, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, nil, &MultiDocError{next.Line, next.Column}
	} else if !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return nil, nil, nil
	}
	var x Extras
	return convert(root.Content[0], &x), x, nil
}

// convert copies a yaml.v3 tree, never following aliases, recording the
// nodes' anchors and tags in x. Its depth is bounded by yaml.v3's own
// limit (10,000).
func convert(n *yaml.Node, x *Extras) *Node {
	y := &Node{Kind: Kind(n.Kind), Null: n.Tag == "!!null", Line: int32(n.Line), Col: int32(n.Column), Value: n.Value,
		Exact: n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0}
	if tagged := n.Style&yaml.TaggedStyle != 0; tagged || n.Anchor != "" || n.Tag == "!!merge" {
		if *x == nil {
			*x = Extras{}
		}
		(*x)[y] = &Extra{Tag: n.Tag, Tagged: tagged, Anchor: n.Anchor}
	}
	if len(n.Content) > 0 && n.Kind != yaml.AliasNode {
		y.Content = make([]*Node, len(n.Content))
		for i, c := range n.Content {
			y.Content[i] = convert(c, x)
		}
	}
	return y
}

// Arena holds the nodes of the trees a reader builds: it hands out nodes
// and slices of node pointers cut from large chunks, so that a reader
// allocates in bulk, and it can be rewound to a Mark, so that a reader
// that is done with what it parsed (one entity of a long list, say)
// reuses the memory for the next instead of keeping a tree of the whole
// file. Nodes handed out after a mark must not be used once the arena is
// rewound to it. It also keeps the stack of the items of the collections
// being parsed (Push, Pending, Collect).
type Arena struct {
	nodes arena[Node]
	ptrs  arena[*Node]
	stack []*Node
}

// Mark is a point an Arena can be rewound to.
type Mark struct{ nodes, ptrs arenaMark }

// Mark returns the current point.
func (a *Arena) Mark() Mark { return Mark{a.nodes.mark(), a.ptrs.mark()} }

// Reset rewinds the arena to m: what was handed out since is reused.
func (a *Arena) Reset(m Mark) {
	a.nodes.reset(m.nodes)
	a.ptrs.reset(m.ptrs)
}

// New returns a zeroed node.
func (a *Arena) New() *Node { return a.nodes.alloc() }

// Slice returns a zeroed slice of n node pointers (appending to it
// reallocates, so slices never overlap).
func (a *Arena) Slice(n int) []*Node { return a.ptrs.slice(n) }

// Push pushes an item of the collection being parsed.
func (a *Arena) Push(n *Node) { a.stack = append(a.stack, n) }

// Pending returns the number of items pushed and not collected: where
// the items of a collection that starts now will begin.
func (a *Arena) Pending() int { return len(a.stack) }

// Collect returns the items pushed since start, in a slice cut from the
// arena, and pops them.
func (a *Arena) Collect(start int) []*Node {
	k := len(a.stack) - start
	if k == 0 {
		return nil
	}
	out := a.ptrs.slice(k)
	copy(out, a.stack[start:])
	clear(a.stack[start:])
	a.stack = a.stack[:start]
	return out
}
