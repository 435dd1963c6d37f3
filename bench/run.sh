#!/usr/bin/env bash
# Runs the scenecs-vs-Ark benchmarks, prints one table of medians and
# writes docs/benchmarks.md. Environment: COUNT (runs, default 5, at least
# 3), BENCHTIME (default 1s), BENCH (regexp, default all).
# On a 2-core machine the default run takes about 5 minutes.
set -euo pipefail

cd "$(dirname "$0")"
COUNT=${COUNT:-5}
BENCHTIME=${BENCHTIME:-1s}
BENCH=${BENCH:-.}
if [ "$COUNT" -lt 3 ]; then
	echo "run.sh: COUNT must be at least 3 (medians)" >&2
	exit 2
fi

mkdir -p results
raw=results/bench.txt
cmd="cd bench && go test -run '^\$' -bench '$BENCH' -count $COUNT -benchtime $BENCHTIME -timeout 60m ."

echo "# $cmd" >&2
go test -run '^$' -bench "$BENCH" -count "$COUNT" -benchtime "$BENCHTIME" -timeout 60m . | tee "$raw"

# The main module's own benchmarks (scene physics, ticks, selectors,
# loading, hot reload), each measured against a hand-written loop.
extra=results/main.txt
xcmd="go test -run '^\$' -bench 'CubesPhysics|TransformPropagation|TickColumn|TickPerEntity|EnemyNotAlive|FewMatches|ID$|Value$|DeepChain|LoadYAML|LoadXML|Reload|SaveToApplied|ParseAttr$' -count $COUNT -benchtime ${XBENCHTIME:-0.5s} ./scenes/ ./components/ ./registry/ ./selector/ ./loader/"
echo "# $xcmd" >&2
(cd .. && go test -run '^$' -bench 'CubesPhysics|TransformPropagation|TickColumn|TickPerEntity|EnemyNotAlive|FewMatches|ID$|Value$|DeepChain|LoadYAML|LoadXML|Reload|SaveToApplied|ParseAttr$' -count "$COUNT" -benchtime "${XBENCHTIME:-0.5s}" ./scenes/ ./components/ ./registry/ ./selector/ ./loader/) | tee "$extra"

rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain -- ../ecs 2>/dev/null)" ]; then
	rev="$rev (ecs/ has uncommitted changes)"
fi

echo
go run ./cmd/report -in "$raw" -md ../docs/benchmarks.md \
	-go "$(go version)" -rev "$rev" \
	-cmd "bench/run.sh  # = $cmd" \
	-extra "$extra" -extracmd "$xcmd"
echo "wrote docs/benchmarks.md and bench/$raw" >&2
