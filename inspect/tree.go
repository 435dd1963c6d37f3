package inspect

import (
	"net/http"

	"github.com/scenecs/scenecs/ecs"
)

// GET /api/tree lists every entity in document order with what a scene
// tree shows: its reference, id, classes, depth and number of children.
// It is the light form of /api/scene for a page that lists 10,000
// entities: no component values.

// treeNode is one entity of GET /api/tree.
type treeNode struct {
	// Ref is the reference scene-run query prints (id or path).
	Ref   string   `json:"ref"`
	ID    string   `json:"id,omitempty"`
	Class []string `json:"class,omitempty"`
	// Depth is the number of ancestors (0 for a root).
	Depth int `json:"depth"`
	// Children is the number of children.
	Children int `json:"children,omitempty"`
	// Handle is the entity's handle ("e12v0"), which names the same
	// entity while it lives even when its path shifts: the page keys its
	// rows by it.
	Handle string `json:"handle"`
}

// treeResult is the answer of GET /api/tree.
type treeResult struct {
	// Version is the World's structural version (ecs.World.Version):
	// the tree is stale once a later version is seen.
	Version  uint64     `json:"version"`
	Count    int        `json:"count"`
	Entities []treeNode `json:"entities"`
}

// getTree: GET /api/tree.
func (in *Inspector) getTree(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply {
		es, err := in.query("*")
		if err != nil {
			return errReply(http.StatusInternalServerError, "inspect: "+err.Error())
		}
		refs := in.paths(es)
		depth := make(map[ecs.Entity]int, len(es))
		out := treeResult{Version: in.w.Version(), Count: len(es), Entities: make([]treeNode, len(es))}
		for i, e := range es {
			n := &out.Entities[i]
			n.Ref, n.ID, n.Class, n.Handle = refs[i], in.reg.EntityID(e), in.reg.Classes(e), e.String()
			// Document order puts a parent before its children, so its
			// depth is known when a child asks.
			if p, ok := in.w.Parent(e); ok {
				n.Depth = depth[p] + 1
			}
			depth[e] = n.Depth
			for range in.w.ChildrenSeq(e) {
				n.Children++
			}
		}
		return okReply(out)
	})
}
