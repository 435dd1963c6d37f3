package ecs

//go:generate go run ./internal/gen
