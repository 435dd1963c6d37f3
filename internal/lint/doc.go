// Package lint holds checks over the whole repository's source that the
// compiler and go vet do not make, run as tests so that `go test ./...`
// keeps them true: that no hand-written function is over [MaxFuncLines]
// lines ([LongFuncs]), that every "did you mean" suggestion is worded
// the one way internal/didyoumean words it ([Wordings]), and that doc
// comments link the names they mention ([DocLinkGaps]): every doc
// comment of ecs, and the package docs of the packages whose outline
// links their concepts.
package lint
