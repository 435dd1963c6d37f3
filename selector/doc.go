// Package selector implements the scenecs selector language: CSS
// selectors applied to entities, such as
// "#level > [enemy][health.hp<20]:not([boss])". An entity's place in the
// hierarchy plays the part of the DOM tree, its id and classes work like
// HTML's, and its components play the part of attributes.
//
// # Outline
//
//   - Syntax: [Parse] turns source text into a syntax tree, a
//     [SelectorList] of [Complex] selectors, each a chain of [Compound]
//     selectors joined by a [Combinator]; a compound holds [Simple]
//     selectors: [ID], [Class], [Attr] (with an [Op] and a [Flag]) and
//     [Pseudo] (with an [Nth] for :nth-child). [ParseWithOptions] bounds
//     the length and nesting ([Options]; [DefaultMaxLength],
//     [DefaultMaxDepth]), and [MustParse] suits selectors that are
//     constants. [SelectorList.String] prints the canonical form, which
//     parses back to an equal tree.
//   - Errors: every node records its column ([Node], [Pos]), so an error
//     is an [*Error] that points into the selector; when the [Source]
//     refused a name, [Error.Err] is the Source's own error.
//   - Sources: a [Source] is what the compiler needs to know of an
//     [ecs.World]: component names to ecs IDs ([Source.ComponentIDs],
//     [ecs.ID]), readers of property values ([Source.PropertyReader],
//     [PropertyReader], [Kind]), entity ids and classes. The registry
//     package's Registry is one; this package does not depend on the
//     registry.
//   - Compiling: [Compile] (or [CompileList] for a parsed list, and
//     [MustCompile]) turns a selector into a [Selector] bound to its
//     Source's World. Component presence and absence become tests matched
//     once per storage table through a cached [ecs.Filter]; value tests,
//     pseudo-classes and combinators run only on the entities that survive.
//     [Selector.Explain] shows the plan.
//   - Querying: a Selector is a live query: keep it and call
//     [Selector.QueryAll] (document order), [Selector.QueryUnordered]
//     (storage order, no sort), [Selector.QueryFirst], [Selector.QueryFrom]
//     (below a scope entity), [Selector.Matches] or [Selector.Count] every
//     frame. Every call runs in time linear in entities × compounds.
//     [Selector.Close] releases its filters.
//   - Relations and variables: a Source that implements [Relations]
//     hands out a [Relation] per property that holds references, for
//     `[docked=#p1]`, `:to(REL, S)` and `:from(REL, S)`; each call picks
//     the cheaper side (relation.go). Query variables `$name` are joined
//     with bindings (vars.go); [CompileWith] declares in [CompileOptions]
//     the ones the host gives with [Selector.Bind].
//
// # The language
//
//	simple:      *  #id  .class  [comp]  [comp.prop]  [comp OP value]  [comp.prop OP value i]
//	operators:   =  ~=  |=  ^=  $=  *=  !=  <  <=  >  >=
//	logical:     :not(list)  :is(list)  :where(list)  :has(relative list)
//	structural:  :root :empty :first-child :last-child :only-child :scope
//	             :nth-child(An+B [of list])  :nth-last-child(An+B [of list])
//	combinators: descendant (whitespace)  >  +  ~     lists: a, b
//	relations:   [rel=#id]  :to(rel, list)  :from(rel, list)   variables: [comp.prop=$name]  $this
//
// All names (ids, classes, components, properties, pseudo-classes, the
// An+B keywords odd/even/n and attribute flags) are case-sensitive.
// docs/selectors.md is the full reference.
package selector
