// Package lint holds checks over the whole repository's source that the
// compiler and go vet do not make, run as tests so that `go test ./...`
// keeps them true: today, that no hand-written function is over
// [MaxFuncLines] lines ([LongFuncs]), and that every "did you mean"
// suggestion is worded the one way internal/didyoumean words it
// ([Wordings]).
package lint
