package scenerun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// startWatch watches the scene file and its includes. It returns a channel
// of reload actions that the run loop executes between ticks, so a reload
// never runs in the middle of one. Each reload parses the bytes the
// watcher judged a save (read once), and a save that would destroy every
// entity is applied only if the files hold the same bytes one debounce
// later.
func startWatch(ctx context.Context, scene *loader.Scene, path string, f runFlags, stdout, stderr io.Writer) (<-chan func(), error) {
	sw, err := WatchScene(ctx, scene, path, watch.Options{Poll: f.poll, Debounce: f.debounce})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "watching %s\n", path)
	out := make(chan func())
	name := filepath.Base(path)
	reg := scene.Registry
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case err := <-sw.Errors:
				var fe *watch.FileError
				if !errors.As(err, &fe) {
					fmt.Fprintf(stderr, "watch: %v\n", err)
					continue
				}
				if !errors.Is(err, watch.ErrEmpty) {
					fmt.Fprintf(stderr, "%v\n", err) // "watch: PATH: ..." already
					continue
				}
				// Reported between ticks, like a failed reload: it
				// counts the running scene's entities, and goes to the
				// inspector's reload log too.
				report := func() {
					err := emptySaveError(scene, path, fe.Path)
					fmt.Fprintf(stderr, "%v\n", err)
					if f.reloaded != nil {
						f.reloaded(nil, err)
					}
				}
				select {
				case out <- report:
				case <-ctx.Done():
					return
				}
			case <-sw.Changes:
				apply := func() {
					if f.dryRun {
						d, err := sw.Check()
						if err != nil {
							fmt.Fprintf(stderr, "check %s failed:\n%v\n", name, err)
							return
						}
						fmt.Fprintf(stdout, "would reload %s: %s\n", name, d.Summary())
						printEntries(stdout, d, reg)
						printWarnings(stderr, d)
						return
					}
					t0 := time.Now()
					d, err := sw.Reload()
					took := time.Since(t0)
					if f.reloaded != nil {
						f.reloaded(d, err) // the inspector's reload event
					}
					if err != nil {
						fmt.Fprintf(stderr, "reload %s failed; the running scene is unchanged:\n%v\n", name, err)
						return
					}
					if d.Empty() {
						// A save that changes nothing the scene runs (a
						// comment, or a change the inspector saved and
						// applied already).
						fmt.Fprintf(stdout, "reload %s: no change (%.1f ms)\n", name, ms(took))
					} else {
						fmt.Fprintf(stdout, "reload %s: %s (%.1f ms)\n", name, d.Summary(), ms(took))
						printEntries(stdout, d, reg)
					}
					printWarnings(stderr, d)
				}
				select {
				case out <- apply:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

// emptySaveError says that the file empty, the scene file path or one it
// includes, was saved empty and is not reloaded, and what to do: save
// the content again, or, to remove every entity on purpose, save a scene
// without entities (which reloads, after the second look).
func emptySaveError(scene *loader.Scene, path, empty string) error {
	name := filepath.Base(path)
	file := name
	what := name + " is empty (0 bytes)"
	n := scene.Len() // the scene's entities a reload of an empty file destroys
	if !sameFile(path, empty) {
		file = empty
		if rel, err := filepath.Rel(filepath.Dir(path), empty); err == nil {
			file = rel
		}
		what = fmt.Sprintf("its include %s is empty (0 bytes)", file)
	} else if n == 1 {
		what += ", and a reload would destroy the scene's only entity"
	} else if n > 1 {
		what += fmt.Sprintf(", and a reload would destroy all %d entities of the scene", n)
	}
	return fmt.Errorf("reload %s held back: %s; the running scene is unchanged.\n"+
		"  Save %s with its content again (undo the save in your editor) to reload,\n"+
		"  or save it as %s to remove every entity it holds", name, what, file, emptyScene(empty))
}

// emptyScene is a scene without entities in the format of file.
func emptyScene(file string) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".xml":
		return "<scene/>"
	case ".json":
		return `{"entities": []}`
	}
	return "entities: []"
}

// sameFile reports whether a and b name the same file.
func sameFile(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// printWarnings prints a reload's warnings (entities matched by place).
func printWarnings(w io.Writer, d *live.Diff) {
	for _, warn := range d.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
}

// maxEntryLines bounds the lines printed for one reload; a reload that
// touches thousands of entities prints the first ones and a count.
const maxEntryLines = 50

// printEntries prints what a reload changes (or would change), one line
// per entity, component and property, naming entities by id or path:
//
//	~ #goblin-1 health.hp 40 → 25
func printEntries(w io.Writer, d *live.Diff, reg *registry.Registry) {
	es := d.Entries(reg)
	for i, e := range es {
		if i == maxEntryLines {
			fmt.Fprintf(w, "  ... and %d more\n", len(es)-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", e)
	}
}
