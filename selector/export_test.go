package selector

// Ops returns the units of combinator work s has done since it was
// compiled: right-to-left steps (memo entries, ancestor and sibling walk
// steps, :has candidates) and, for set-at-a-time evaluation, entities
// visited by a pass.
func (s *Selector) Ops() uint64 { return s.ops }

// SetBudget sets the per-call budget of right-to-left work to scale units
// per live entity plus slack, and returns a function that restores it.
func SetBudget(scale, slack int) (restore func()) {
	oldScale, oldSlack := budgetScale, budgetSlack
	budgetScale, budgetSlack = scale, slack
	return func() { budgetScale, budgetSlack = oldScale, oldSlack }
}

// SharesIndex reports whether a and b use the same document-order index.
func SharesIndex(a, b *Selector) bool { return a.cache == b.cache }
