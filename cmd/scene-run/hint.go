package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// inspectAddr is the address the hint at the end of a run suggests.
const inspectAddr = "127.0.0.1:8080"

// printInspectHint ends a plain run (no -inspect, no -watch) with the
// command that opens the same scene in the inspector:
//
//	inspect it live: go run ./cmd/scene-run run -inspect 127.0.0.1:8080
func printInspectHint(w io.Writer, path string) {
	cmd := selfCommand() + " run -inspect " + inspectAddr
	if path != "" {
		cmd += " " + shellQuote(path)
	}
	fmt.Fprintf(w, "inspect it live: %s\n", cmd)
}

// selfCommand is how the user ran this program: "go run ./cmd/scene-run"
// when it was built by go run (into the go-build temporary directory),
// otherwise "scene-run".
func selfCommand() string {
	if strings.Contains(filepath.ToSlash(os.Args[0]), "/go-build") {
		return "go run ./cmd/scene-run"
	}
	return "scene-run"
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
