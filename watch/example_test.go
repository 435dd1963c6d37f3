package watch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/scenecs/scenecs/watch"
)

// Watch a file and receive its saves with their content.
func Example() {
	dir, err := os.MkdirTemp("", "watch-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "level.yaml")
	if err := os.WriteFile(file, []byte("entities: []\n"), 0o644); err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := watch.New(ctx, []string{file}, watch.Options{Debounce: 20 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	// An editor's save: a temporary file renamed over the target.
	tmp := file + "~"
	if err := os.WriteFile(tmp, []byte("entities: [{id: a}]\n"), 0o644); err != nil {
		panic(err)
	}
	if err := os.Rename(tmp, file); err != nil {
		panic(err)
	}
	select {
	case files := <-w.Changes:
		// Hot reload hands these bytes to the loader's Reloader:
		// rl.ReloadFrom(scenefile.Snapshot(w.Snapshot())).
		fmt.Printf("%s saved: %q\n", filepath.Base(files[0]), w.Snapshot()[files[0]])
	case err := <-w.Errors:
		fmt.Println("error:", err)
	case <-time.After(5 * time.Second):
		fmt.Println("no save seen")
	}
	// Output: level.yaml saved: "entities: [{id: a}]\n"
}
