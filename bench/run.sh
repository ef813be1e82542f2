#!/usr/bin/env bash
# Runs the speed benchmarks and prints its ratios.
#
#   bench/run.sh                   # -count=10, -benchtime=200ms
#   BENCHTIME=1s COUNT=20 bench/run.sh
#
# It first runs the module's tests (every baseline must give the library's
# JSON before anything is timed), then COUNT rounds of the benchmarks: the
# success and failure paths at the machine's GOMAXPROCS, and the parallel
# one at -cpu 1,2. It writes to bench/results/: raw.txt (go test output), results.txt
# (the machine, benchstat's tables and the ratios) and prints the ratios,
# computed from medians by cmd/ratios.
set -euo pipefail
cd "$(dirname "$0")"

BENCHTIME=${BENCHTIME:-200ms}
COUNT=${COUNT:-10}
out=results
mkdir -p "$out"

benchstat=$(command -v benchstat || true)
if [ -z "$benchstat" ]; then
  benchstat="$(go env GOPATH)/bin/benchstat"
  if [ ! -x "$benchstat" ]; then
    echo "== installing benchstat"
    go install golang.org/x/perf/cmd/benchstat@latest
  fi
fi

echo "== tests: every baseline gives the library's JSON"
go test -count=1 ./...

# The library's revision: EXPOSE_REV when set (a run from a copy of the
# tree), else git's view of the work tree.
rev=${EXPOSE_REV:-$(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ -z "${EXPOSE_REV:-}" ] && git -C .. status --porcelain -- entity rules dsl 2>/dev/null | grep -v -e '_test\.go$' -e '/testdata/' | grep -q .; then
  rev="$rev (with uncommitted changes in the library)"
fi

load_start=$(cut -d' ' -f1-3 /proc/loadavg)

header() {
  echo "# Benchmarks of github.com/expose-go/expose/bench"
  echo "# date:      $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# library:   $rev"
  echo "# go:        $(go version)"
  echo "# cpu:       $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') (/proc/cpuinfo; $(grep -o -m1 -w avx2 /proc/cpuinfo || echo no avx2))"
  echo "# nproc:     $(nproc)"
  echo "# load avg:  $load_start (1, 5, 15 min, at start)"
  if awk -v l="${load_start%% *}" 'BEGIN { exit !(l > 1) }'; then
    echo "# note:      other processes were using the cores (load above 1): timings are noisy,"
    echo "#            and the parallel ratio needs an idle second core to mean anything"
  fi
  echo "# command:   bench/run.sh: $COUNT rounds (-count=$COUNT in samples, interleaved) of"
  echo "#              go test -run '^\$' -bench '^Benchmark(Users|Failing)\$' -count 1 -benchtime $BENCHTIME"
  echo "#              go test -run '^\$' -bench '^BenchmarkParallel\$' -cpu 1,2 -count 1 -benchtime $BENCHTIME"
  echo "#              go test -run '^\$' -bench '^BenchmarkRaw\$' -count 1 -benchtime $BENCHTIME"
  echo "#              go test -run '^\$' -bench '^Benchmark(Object|Write)\$' -count 1 -benchtime $BENCHTIME"
  echo "#              go test -run '^\$' -bench '^BenchmarkShape\$' -count 1 -benchtime $BENCHTIME"
  echo "#              go test -run '^\$' -bench '^Benchmark(Rows|SeedStruct)\$' -count 1 -benchtime $BENCHTIME"
}

raw="$out/raw.txt"
bin=$(mktemp -d)/bench.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" .

echo "== benchmarks: $COUNT rounds, -benchtime $BENCHTIME; raw output in $raw"
header > "$raw"
# COUNT rounds of -count=1 rather than one -count=COUNT: the same number of
# samples, but each round times every implementation once, so that load
# from other processes on a shared machine is spread over all of them
# instead of skewing the ratios of whichever ran during it.
for i in $(seq "$COUNT"); do
  echo "-- round $i/$COUNT" >&2
  "$bin" -test.run '^$' -test.bench '^Benchmark(Users|Failing)$' -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
  "$bin" -test.run '^$' -test.bench '^BenchmarkParallel$' -test.cpu 1,2 -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
  "$bin" -test.run '^$' -test.bench '^BenchmarkRaw$' -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
  "$bin" -test.run '^$' -test.bench '^Benchmark(Object|Write)$' -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
  "$bin" -test.run '^$' -test.bench '^BenchmarkShape$' -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
  "$bin" -test.run '^$' -test.bench '^Benchmark(Rows|SeedStruct)$' -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw"
done

ratios=$(go run ./cmd/ratios "$raw")
{
  header
  echo "# load avg:  $(cut -d' ' -f1-3 /proc/loadavg) (at end)"
  echo
  echo "## Ratios (of medians; go run ./cmd/ratios results/raw.txt)"
  echo
  echo "$ratios"
  echo
  echo "## Implementations side by side (benchstat -filter .name:Users -col /impl)"
  echo
  "$benchstat" -filter '.name:Users' -col /impl "$raw"
  echo
  echo "## Failure path (benchstat -filter .name:Failing -col /impl)"
  echo
  "$benchstat" -filter '.name:Failing' -col /impl "$raw"
  echo
  echo "## Parallel AppendJSON, 1 P vs 2 P (benchstat -filter .name:Parallel -col /gomaxprocs)"
  echo
  "$benchstat" -filter '.name:Parallel' -col /gomaxprocs "$raw"
  echo
  echo "## Raw JSON input (benchstat -filter .name:Raw -col /impl)"
  echo
  "$benchstat" -filter '.name:Raw' -col /impl "$raw"
  echo
  echo "## Per-call shaping (benchstat -filter .name:Shape -col /impl)"
  echo
  "$benchstat" -filter '.name:Shape' -col /impl "$raw"
  echo
  echo "## Struct rows against the encoders (benchstat -filter .name:Rows -col /impl)"
  echo
  "$benchstat" -filter '.name:Rows' -col /impl "$raw"
  echo
  echo "## The seed from maps and from structs (benchstat -filter .name:SeedStruct -col /impl)"
  echo
  "$benchstat" -filter '.name:SeedStruct' -col /impl "$raw"
  echo
  echo "## Every benchmark (benchstat)"
  echo
  "$benchstat" "$raw"
} > "$out/results.txt"

echo
echo "$ratios"
echo
echo "results in $out/results.txt"
