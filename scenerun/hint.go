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
// command that opens the same scene in the inspector, as the user can
// type it where they ran this one:
//
//	inspect it live: go run ./cmd/scene-run run -inspect 127.0.0.1:8080
func (c *cli) printInspectHint(w io.Writer, path string) {
	cmd := c.selfCommand() + " run -inspect " + inspectAddr
	if path != "" {
		cmd += " " + shellQuote(path)
	}
	fmt.Fprintf(w, "inspect it live: %s\n", cmd)
}

// invocation is how the user ran the program, as Main sees it.
type invocation struct {
	arg0    string // os.Args[0]
	mainDir string // the main package's source directory, if known
}

// selfCommand is the command that runs this program again from the
// user's working directory (see [commandFor]); for Program.Run, which
// does not know how it was invoked, the program's name.
func (c *cli) selfCommand() string {
	if c.invoked.arg0 == "" {
		return c.Name
	}
	bi, _ := debug.ReadBuildInfo()
	wd, _ := os.Getwd()
	return commandFor(c.invoked, bi, wd, c.Name)
}

// commandFor is the command that runs the program invoked as inv again
// from the directory wd:
//
//   - built by go run (the binary is in go run's temporary directory on
//     a first run, in the build cache on the next ones): "go run
//     PACKAGE@VERSION" when the module came from the module cache (go run
//     PACKAGE@latest: the build has the module's checksum), else "go run"
//     with the main package's directory relative to wd ("./cmd/scene-run",
//     "."), or, when its directory is unknown (-trimpath), relative to
//     the module's root;
//   - otherwise the command as typed: the bare name the shell found on
//     PATH, or the path given ("./scene-run", "/opt/bin/scene-run").
func commandFor(inv invocation, bi *debug.BuildInfo, wd, name string) string {
	if !goRunBinary(inv.arg0) {
		if inv.arg0 == "" {
			return name
		}
		return shellQuote(inv.arg0)
	}
	// A checkout's build may carry a version too (stamped from its VCS
	// tags), but no checksum: only a downloaded module has one.
	if bi != nil && bi.Main.Sum != "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return "go run " + shellQuote(bi.Path+"@"+bi.Main.Version)
	}
	if filepath.IsAbs(inv.mainDir) && filepath.IsAbs(wd) {
		if rel, err := filepath.Rel(wd, inv.mainDir); err == nil {
			return "go run " + shellQuote(packageArg(filepath.ToSlash(rel)))
		}
	}
	if bi != nil {
		if dir, ok := strings.CutPrefix(bi.Path, bi.Main.Path+"/"); ok {
			return "go run " + shellQuote("./"+dir)
		}
		if bi.Path == bi.Main.Path {
			return "go run ."
		}
	}
	return name
}

// packageArg writes a relative directory as go run takes it: ".",
// "./dir" or "../dir".
func packageArg(rel string) string {
	if rel == "." || strings.HasPrefix(rel, "../") || rel == ".." {
		return rel
	}
	return "./" + rel
}

// goRunBinary reports whether the executable at exe was built by go run:
// it is GOTMPDIR/go-buildN/bN/exe/NAME on a first run, and
// GOCACHE/xx/xxxx...-d/NAME (the hash's first two hex digits naming the
// directory) when go run reuses the binary it cached.
func goRunBinary(exe string) bool {
	exe = filepath.ToSlash(exe)
	dir := path.Dir(exe)
	parent := path.Dir(dir)
	if path.Base(dir) == "exe" {
		b, tmp := path.Base(parent), path.Base(path.Dir(parent))
		return isDigitsAfter(b, "b") && isDigitsAfter(tmp, "go-build")
	}
	hash, ok := strings.CutSuffix(path.Base(dir), "-d")
	return ok && len(hash) >= 32 && isHex(hash) && path.Base(parent) == hash[:2]
}

// isDigitsAfter reports whether s is prefix followed by decimal digits.
func isDigitsAfter(s, prefix string) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

// isHex reports whether s is lower-case hexadecimal digits.
func isHex(s string) bool { return strings.Trim(s, "0123456789abcdef") == "" }

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
