package scenerun

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// inspectAddr is the address the hint at the end of a run suggests.
const inspectAddr = "127.0.0.1:8080"

// printInspectHint ends a plain run (no -inspect, no -watch) with the
// command that opens the same scene in the inspector:
//
//	inspect it live: go run ./cmd/scene-run run -inspect 127.0.0.1:8080
func (c *cli) printInspectHint(w io.Writer, path string) {
	cmd := c.selfCommand() + " run -inspect " + inspectAddr
	if path != "" {
		cmd += " " + shellQuote(path)
	}
	fmt.Fprintf(w, "inspect it live: %s\n", cmd)
}

// selfCommand is how the user ran this program: "go run ./cmd/scene-run"
// (the main package's directory in its module) when go run built it (as
// go-build.../exe/NAME); otherwise the program's name.
func (c *cli) selfCommand() string {
	exe := filepath.ToSlash(os.Args[0])
	if !strings.Contains(exe, "/go-build") || path.Base(path.Dir(exe)) != "exe" {
		return c.Name
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if dir, ok := strings.CutPrefix(bi.Path, bi.Main.Path+"/"); ok {
			return "go run ./" + dir
		}
		if bi.Path == bi.Main.Path {
			return "go run ."
		}
	}
	return c.Name
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
