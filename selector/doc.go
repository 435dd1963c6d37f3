// Package selector implements the scenecs selector language: CSS
// selectors applied to entities, such as
// "#level > [enemy][health.hp<20]:not([boss])". An entity's place in the
// hierarchy plays the part of the DOM tree, its id and classes work like
// HTML's, and its components play the part of attributes.
//
// [Parse] turns source text into a syntax tree ([SelectorList]); every
// node records its column, so errors ([*Error]) point into the selector.
// [Compile] turns it into a [Selector] against a [Source], which answers
// for component names, property values, ids and classes;
// *registry.Registry is one, and the selector package does not depend on
// the registry. A Selector is a live query: keep it and call
// [Selector.QueryAll], [Selector.QueryFirst], [Selector.Matches] or
// [Selector.Count] every frame. Component presence and absence are
// matched once per storage table through a cached [ecs.Filter]; value
// tests, pseudo-classes and combinators run only on the entities that
// survive.
//
// Summary of the language:
//
//	simple:      *  #id  .class  [comp]  [comp.prop]  [comp OP value]  [comp.prop OP value i]
//	operators:   =  ~=  |=  ^=  $=  *=  !=  <  <=  >  >=
//	logical:     :not(list)  :is(list)  :where(list)  :has(relative list)
//	structural:  :root :empty :first-child :last-child :only-child :scope
//	             :nth-child(An+B [of list])  :nth-last-child(An+B [of list])
//	combinators: descendant (whitespace)  >  +  ~     lists: a, b
//
// All names (ids, classes, components, properties, pseudo-classes, the
// An+B keywords odd/even/n and attribute flags) are case-sensitive.
// docs/selectors.md is the full reference.
package selector
