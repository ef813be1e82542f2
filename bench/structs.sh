#!/usr/bin/env bash
# Times struct input and the fixed cost per call side by side, and counts
# their instructions:
#
#   bench/structs.sh                  # 12 rounds, -benchtime 200ms
#   COUNT=20 BENCHTIME=500ms bench/structs.sh
#
# Each round runs, once each (-count 1: the rounds interleave the
# implementations, so that load from other processes spreads over all of
# them), BenchmarkRows (a []Row through the entities and the encoders),
# BenchmarkSeedStruct (the seed from maps and from structs) and
# BenchmarkUsers' AppendJSON and handwritten at 2 and 100 users. Then
# callgrind.sh counts the instructions of one call of each, which load does
# not change. It writes results/structs-raw.txt (go test's output) and
# results/structs.txt (the machine, the ratios of medians, benchstat's
# tables and the counts).
set -euo pipefail
cd "$(dirname "$0")"

BENCHTIME=${BENCHTIME:-200ms}
COUNT=${COUNT:-12}
out=results
raw=$out/structs-raw.txt
benchstat=$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")
[ -x "$benchstat" ] || go install golang.org/x/perf/cmd/benchstat@latest

go test -count=1 -run 'Rows|SeedStruct|Equal' .
rev=${EXPOSE_REV:-$(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ -z "${EXPOSE_REV:-}" ] && git -C .. status --porcelain -- entity rules dsl internal 2>/dev/null | grep -v -e '_test\.go$' -e '/testdata/' | grep -q .; then
  rev="$rev (with uncommitted changes in the library)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" .
go build -o "$tmp/opcount" ./cmd/opcount

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
B1='^Benchmark(Rows|SeedStruct)$'
B2='^BenchmarkUsers$/^impl=(AppendJSON|handwritten)$/^users=(2|100)$'
: > "$raw"
for i in $(seq "$COUNT"); do
  echo "-- round $i/$COUNT" >&2
  "$tmp/bench.test" -test.run '^$' -test.bench "$B1" -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
  "$tmp/bench.test" -test.run '^$' -test.bench "$B2" -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
done

echo "-- callgrind" >&2
counts=$(BIN="$tmp/opcount" ./callgrind.sh \
  rows/AppendJSON:100 rows/checked:100 rows/goccy:100 rows/sonic:100 rows/json.Marshal:100 \
  rows/AppendJSON:1000 rows/checked:1000 rows/goccy:1000 rows/json.Marshal:1000 \
  users/AppendJSON:2 users/structs:2 users/handwritten:2 \
  users/AppendJSON:100 users/structs:100 users/handwritten:100 \
  users/AppendJSON:1000 users/structs:1000 \
  empty/AppendJSON:0 empty/handwritten:0)

ir() { awk -v op="$1" -v n="$2" '$1 == op && $2 == n { print $3 }' <<<"$counts"; }
ratio() { awk -v a="$(ir "$1" "$3")" -v b="$(ir "$2" "$3")" 'BEGIN { printf "%.2fx", a / b }'; }

{
  echo "# Struct input and the fixed cost per call (bench/structs.sh)"
  echo "# date:      $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# library:   $rev"
  echo "# go:        $(go version)"
  echo "# cpu:       $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
  echo "# load avg:  $load_start at start, $(cut -d' ' -f1-3 /proc/loadavg) at end (1, 5, 15 min)"
  echo "# command:   bench/structs.sh: $COUNT rounds, each"
  echo "#              bench.test -test.run '^\$' -test.bench '$B1' -test.count 1 -test.benchtime $BENCHTIME"
  echo "#              bench.test -test.run '^\$' -test.bench '$B2' -test.count 1 -test.benchtime $BENCHTIME"
  echo "#            then bench/callgrind.sh (N1=${N1:-100} N2=${N2:-1100} runs of cmd/opcount under callgrind)"
  echo
  echo "## Ratios of medians (go run ./cmd/ratios results/structs-raw.txt)"
  echo
  go run ./cmd/ratios "$raw" | sed -n '/^Targets/,$p' | grep -E '^(Targets|target|22\.)|targets:'
  echo
  echo "## Instructions per call (callgrind: the same on a loaded machine)"
  echo
  echo "$counts"
  echo
  echo "ratios of instructions:"
  for n in 100 1000; do
    echo "  rows AppendJSON / goccy, $n rows:        $(ratio rows/AppendJSON rows/goccy $n)"
    echo "  rows checked / json.Marshal, $n rows:    $(ratio rows/checked rows/json.Marshal $n)"
  done
  for n in 2 100; do
    echo "  seed AppendJSON / handwritten, $n users: $(ratio users/AppendJSON users/handwritten $n)"
  done
  for n in 2 100 1000; do
    echo "  seed from structs / from maps, $n users: $(ratio users/structs users/AppendJSON $n)"
  done
  echo "  seed with an empty list (the fixed cost), AppendJSON / handwritten: $(ratio empty/AppendJSON empty/handwritten 0)"
  echo
  echo "## Rows side by side (benchstat -filter .name:Rows -col /impl)"
  echo
  "$benchstat" -filter '.name:Rows' -col /impl "$raw"
  echo
  echo "## The seed from maps and from structs (benchstat -filter .name:SeedStruct -col /impl)"
  echo
  "$benchstat" -filter '.name:SeedStruct' -col /impl "$raw"
  echo
  echo "## The fixed cost per call (benchstat -filter .name:Users -col /impl)"
  echo
  "$benchstat" -filter '.name:Users' -col /impl "$raw"
} > "$out/structs.txt"
cat "$out/structs.txt"
