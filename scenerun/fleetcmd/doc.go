// Package fleetcmd holds the commands of a fleet of room hosts for a
// [scenerun.Program]: "host", which runs a room host (rooms of scenes
// created and reached through NATS, an embedded NATS server when no
// fleet is given, a page of the fleet's rooms), and "rooms", which lists,
// creates, destroys, resumes and asks the rooms of a fleet. cmd/scene-run
// adds them:
//
//	scenerun.Program{Commands: fleetcmd.Commands()}.Main()
//
// They are a package of their own so that a program that embeds
// scenerun without them links no NATS (docs/rooms.md, docs/scale.md).
package fleetcmd
