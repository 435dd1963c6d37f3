module github.com/scenecs/scenecs/bench

go 1.26.0

replace github.com/scenecs/scenecs => ../

require (
	github.com/mlange-42/ark v0.8.3
	github.com/scenecs/scenecs v0.0.0-00010101000000-000000000000
)
