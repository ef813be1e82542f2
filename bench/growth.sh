#!/usr/bin/env bash
# Runs BenchmarkGrowth (the seed's shape at 1 to 100,000 users, from maps,
# structs, raw JSON and a stream) and prints the median time per element
# at each length, and its growth from 100 users to 100,000 (target: at
# most 1.5x).
#
#   bench/growth.sh                 # 10 rounds, -benchtime 300ms
#   COUNT=20 BENCHTIME=1s bench/growth.sh
#
# It writes results/growth-raw.txt (go test output) and results/growth.txt
# (the machine, the command and the table).
set -euo pipefail
cd "$(dirname "$0")"

BENCHTIME=${BENCHTIME:-300ms}
COUNT=${COUNT:-10}
out=results
mkdir -p "$out"
raw="$out/growth-raw.txt"

rev=${EXPOSE_REV:-$(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)}
header() {
  echo "# BenchmarkGrowth of github.com/expose-go/expose/bench"
  echo "# date:      $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# library:   $rev"
  echo "# go:        $(go version)"
  echo "# cpu:       $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
  echo "# load avg:  $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
  echo "# command:   bench/growth.sh: $COUNT rounds (interleaved) of"
  echo "#              go test -run '^\$' -bench '^BenchmarkGrowth\$' -count 1 -benchtime $BENCHTIME"
  echo "#            then go run ./cmd/growth $raw"
}

bin=$(mktemp -d)/bench.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" .

header > "$raw"
for i in $(seq "$COUNT"); do
  echo "-- round $i/$COUNT" >&2
  "$bin" -test.run '^$' -test.bench '^BenchmarkGrowth$' -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
done

status=0
table=$(go run ./cmd/growth "$raw") || status=$?
{
  header
  echo
  echo "$table"
} > "$out/growth.txt"
echo "$table"
exit $status
