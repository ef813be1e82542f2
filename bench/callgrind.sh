#!/usr/bin/env bash
# Counts the instructions one operation executes, with valgrind's
# callgrind: counts, not seconds, so the same on a loaded machine as on an
# idle one (within a few hundredths of a percent).
#
#   bench/callgrind.sh users/AppendJSON:2 users/handwritten:2 rows/goccy:100 ...
#   N1=200 N2=1200 bench/callgrind.sh ...
#
# Each argument is an operation of cmd/opcount and a size (users or rows).
# It runs twice under callgrind, N1 and N2 times; the difference of the two
# totals over N2-N1 is the count of one operation, the setup (building the
# input) cancelling out. GODEBUG=asyncpreemptoff=1 (callgrind trips on the
# preemption signal), GOGC=off (no collection's work falls into one run and
# not the other) and GOMAXPROCS=1. It prints one line per operation: its
# name, size and Ir/op.
set -euo pipefail
cd "$(dirname "$0")"
N1=${N1:-100} N2=${N2:-1100}
bin=${BIN:-}
if [ -z "$bin" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  bin=$tmp/opcount
  go build -o "$bin" ./cmd/opcount
fi
count() { # op n iter
  GODEBUG=asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$bin" -op "$1" -n "$2" -iter "$3" 2>&1 >/dev/null | sed -n 's/.*Collected : *//p'
}
for arg in "$@"; do
  op=${arg%:*} n=${arg##*:}
  a=$(count "$op" "$n" "$N1") z=$(count "$op" "$n" "$N2")
  printf '%-34s %6d %12.0f Ir/op\n' "$op" "$n" "$(awk -v a="$a" -v z="$z" -v n=$((N2 - N1)) 'BEGIN { print (z - a) / n }')"
done
