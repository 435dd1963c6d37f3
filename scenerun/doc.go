// Package scenerun is the command set of scene-run as a library: run
// (with -watch and -inspect), query, dump, validate, components and
// schema, for a program's own registry. A game registers its components
// and hands the command line to the same tools cmd/scene-run offers:
//
//	func main() {
//		scenerun.Program{
//			Name:     "mygame",
//			Register: func(reg *registry.Registry, b *components.Builtins) error {
//				_, err := registry.Register[Chase](reg, "chase", chaseDef)
//				return err
//			},
//		}.Main()
//	}
//
// after which "mygame validate level.yaml", "mygame run -watch -inspect
// 127.0.0.1:8080 level.yaml" and "mygame schema level.yaml" know the
// game's components. cmd/scene-run is Program{}.Main() with the
// built-ins alone.
//
// # Outline
//
//   - [Program] describes the program: its name ([Program.Name]), its own
//     components and systems ([Program.Register], called on every fresh
//     [registry.Registry] after the built-ins of package components,
//     [components.Builtins]), the scene run loads when given none
//     ([Program.Scenes], [Program.DefaultScene]) and the help of commands
//     it adds itself ([Program.Help]).
//   - [Program.Main] runs the process's command line and exits with its
//     code; [Program.Run] runs one command line with its own context and
//     output and returns the code: [ExitOK], [ExitScene] (a scene or a
//     tick failed) or [ExitUsage] (the command line was wrong).
//   - The commands, their flags and output are those of scene-run,
//     documented in its help ("PROGRAM COMMAND -h") and in docs/.
//   - A game with a loop of its own uses [WatchScene] for hot reload: the
//     [SceneWatcher] it returns reports saves on [SceneWatcher.Changes],
//     and [SceneWatcher.Reload] applies one between ticks
//     ([SceneWatcher.Check] is the dry run). The inspector is package
//     inspect's [inspect.Inspector]; examples/chase shows both.
package scenerun
