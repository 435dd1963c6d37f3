package scenerun

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/scenecs/scenecs/loader"
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
				fmt.Fprintf(stderr, "watch: %v\n", err)
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

// printWarnings prints a reload's warnings (entities matched by place).
func printWarnings(w io.Writer, d *loader.Diff) {
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
func printEntries(w io.Writer, d *loader.Diff, reg *registry.Registry) {
	es := d.Entries(reg)
	for i, e := range es {
		if i == maxEntryLines {
			fmt.Fprintf(w, "  ... and %d more\n", len(es)-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", e)
	}
}
