// Package events delivers the entity events of one [ecs.World]: A-Frame's
// el.emit and addEventListener, with a budget.
//
// # Outline
//
//   - [Events]: made with [New] over a World (a registry.Registry makes
//     one and hands it out as Registry.Events). [Events.On] and
//     [Events.OnAs] register a listener for named events on an entity
//     (its [ListenerID] removes it with [Events.Off]); [Events.Emit]
//     delivers an [Event] to the entity's listeners and, if it bubbles,
//     to each ancestor's until one calls [Event.StopPropagation];
//     [Events.EmitLoaded] emits A-Frame's loaded on a subtree. Listeners
//     go with their entity. A delivery allocates nothing: Emit reuses its
//     Events.
//   - Taps: [Events.AddTap] registers a [Tap] told of every event, heard
//     or not (an inspector's event log).
//   - The budget: the deliveries (listener calls) of one [Window] are
//     bounded ([Options.Budget]). A window is opened around a unit of work
//     ([Events.OpenWindow]: a tick, an inspector's call, a hot reload);
//     outside any window each outermost Emit is one. When the budget runs
//     out, the first refused delivery is reported once, as a
//     [*BudgetError] naming the entity, the listener's owner and the
//     event, and the window's further deliveries are dropped. A handler
//     that emits its own event twice asks for 2³² deliveries when nested
//     32 deep; the budget ends it after the budget's worth.
//   - Details: [ComponentEvent] and [ChildEvent] are the details of the
//     events a registry emits itself (componentinitialized, ...,
//     child-attached, child-detached).
//
// An Events, like its World, is used from one goroutine. Emit, On and
// Off panic while the World is frozen for parallel work
// ([ecs.World.Freeze]): a system running under the parallel rules emits
// through its command buffer.
package events
