#!/usr/bin/env bash
# Compares two revisions of the library on the same benchmarks, rounds
# alternated so that load from other processes spreads over both:
#
#   bench/beforeafter.sh OLDREV [NEWREV] [ROUNDS]     # NEWREV: the work tree
#
# It builds bench/'s test binary at each revision (the work tree's versions
# of the bench files the old revision has are copied into it, so both run
# the same benchmarks)
# and prints benchstat's table.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=${2:-} rounds=${3:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build() { # rev dir
  mkdir -p "$tmp/$2"
  if [ -n "$1" ]; then git archive "$1" | tar -x -C "$tmp/$2"; else cp -r . "$tmp/$2/"; fi
  # The work tree's versions of the bench files the revision has (new
  # benchmark files may use API the old revision lacks).
  for f in bench/*_test.go; do
    if [ -e "$tmp/$2/$f" ]; then cp "$f" "$tmp/$2/$f"; fi
  done
  (cd "$tmp/$2/bench" && go test -c -o "$tmp/$2.test" .)
}
build "$old" old
build "$new" new
# The benchmarks compared (B to choose others): the seed's AppendJSON,
# MakeJSON and Make, raw JSON input, Object reads, Write, per-call shaping
# and typed lists.
B=${B:-'^Benchmark(Users|Raw|Object|Write|Shape|TypedList)$/impl=(AppendJSON|MakeJSON|Make|Make\+MarshalJSON|raw|append|Get|Map|json\.Unmarshal|Write|conditional|plain|Select|Only|With\+Version|list|\[\]string|\[\]string\+each)/'}
for i in $(seq "$rounds"); do
  for w in old new; do
    (cd bench && "$tmp/$w.test" -test.run '^$' -test.bench "$B" -test.count 1 -test.benchtime 200ms -test.benchmem) >> "$tmp/$w.txt"
  done
  echo "round $i/$rounds" >&2
done
benchstat=$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")
[ -x "$benchstat" ] || go install golang.org/x/perf/cmd/benchstat@latest
"$benchstat" "$tmp/old.txt" "$tmp/new.txt"
