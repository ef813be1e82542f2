#!/usr/bin/env bash
# Times the request side and per-call shaping against their baselines,
# interleaved, and counts their instructions:
#
#   bench/requests.sh                   # 10 rounds, -benchtime 200ms, the work tree's library
#   REV=main bench/requests.sh          # the library at a revision, with the work tree's benchmarks
#   COUNT=20 BENCHTIME=500ms bench/requests.sh
#
# Each round runs, once each (-count 1: the rounds interleave the
# implementations, so that load from other processes spreads over all of
# them), BenchmarkRequest (Bind, MakeRequest, Patch, the POST handler and
# their baselines at 3 and 130 order lines), BenchmarkShape's selections at
# 2 and 100 users, BenchmarkUsers' AppendJSON and handwritten at 2 users
# (the fixed cost of a call) and package rules' BenchmarkSimplePattern.
# Then callgrind.sh counts the instructions of one call of each request
# operation, which load does not change. It writes results/requests-raw.txt
# (go test's output) and results/requests.txt (the machine, the ratios of
# medians with each target, benchstat's tables and the counts).
#
# With REV, the library is the revision's (git archive) and bench/ and
# rules/regex_bench_test.go are the work tree's, so that the same benchmarks
# measure the revision: the before-figures of a change.
set -euo pipefail
cd "$(dirname "$0")"

BENCHTIME=${BENCHTIME:-200ms}
COUNT=${COUNT:-10}
out=$PWD/results
raw=$out/requests-raw.txt
benchstat=$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")
[ -x "$benchstat" ] || go install golang.org/x/perf/cmd/benchstat@latest

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${REV:-}" ]; then
  rev="$(git -C .. rev-parse --short "$REV") ($REV, with the work tree's bench/)"
  mkdir "$tmp/lib"
  git -C .. archive "$REV" | tar -x -C "$tmp/lib"
  rm -rf "$tmp/lib/bench"
  cp -r . "$tmp/lib/bench"
  cp ../rules/regex_bench_test.go "$tmp/lib/rules/"
  src=$tmp/lib
else
  rev=$(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)
  if git -C .. status --porcelain -- entity rules dsl internal 2>/dev/null | grep -v -e '_test\.go$' -e '/testdata/' | grep -q .; then
    rev="$rev (with uncommitted changes in the library)"
  fi
  src=$(cd .. && pwd)
fi

echo "-- tests: the baselines accept and refuse what the library does" >&2
(cd "$src/bench" && go test -count=1 -run 'Request|Handler|Patch|Order' . >&2)
(cd "$src/bench" && go test -c -o "$tmp/bench.test" . && go build -o "$tmp/opcount" ./cmd/opcount)
(cd "$src/rules" && go test -c -o "$tmp/rules.test" .)

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
B1='^BenchmarkRequest$'
B2='^BenchmarkShape$/^impl=(plain|Select|Only|Except|flag|flag-unset)$/^users=(2|100)$'
B3='^BenchmarkUsers$/^impl=(AppendJSON|handwritten)$/^users=2$'
B4='^BenchmarkSimplePattern$'
: > "$raw"
for i in $(seq "$COUNT"); do
  echo "-- round $i/$COUNT" >&2
  (cd "$src/bench" &&
    "$tmp/bench.test" -test.run '^$' -test.bench "$B1" -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw" &&
    "$tmp/bench.test" -test.run '^$' -test.bench "$B2" -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw" &&
    "$tmp/bench.test" -test.run '^$' -test.bench "$B3" -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw")
  (cd "$src/rules" && "$tmp/rules.test" -test.run '^$' -test.bench "$B4" -test.count 1 -test.benchtime "$BENCHTIME" >> "$raw")
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

echo "-- callgrind" >&2
ops=(Bind MakeRequest json+validator jsonv2 goccy Bind-failing json+validator-failing handler huma Patch Patch+Bind merge+json+validator)
args=()
for n in 3 130; do
  for o in "${ops[@]}"; do args+=("order/$o:$n"); done
done
counts=$(cd "$src/bench" && BIN="$tmp/opcount" N1=${N1:-20} N2=${N2:-220} ./callgrind.sh "${args[@]}")
counts+=$'\n'$(cd "$src/bench" && BIN="$tmp/opcount" ./callgrind.sh \
  users/AppendJSON:2 users/Select:2 users/Only:2 users/Except:2 users/flag:2 users/handwritten:2 \
  users/AppendJSON:100 users/Select:100 users/Only:100 users/Except:100 users/flag:100)

ir() { awk -v op="$1" -v n="$2" '$1 == op && $2 == n { print $3 }' <<<"$counts"; }
ratio() { awk -v a="$(ir "$1" "$3")" -v b="$(ir "$2" "$3")" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%.2fx", a / b }'; }

{
  echo "# The request side and per-call shaping against their baselines (bench/requests.sh)"
  echo "# date:      $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# library:   $rev"
  echo "# go:        $(go version)"
  echo "# cpu:       $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
  echo "# load avg:  $load_start at start, $load_end at the end of the timed rounds (1, 5, 15 min)"
  if awk -v l="${load_start%% *}" -v m="${load_end%% *}" 'BEGIN { exit !(l > 1 || m > 1) }'; then
    echo "# note:      other processes were using the cores (load above 1): timings are noisy; the"
    echo "#            rounds interleave the implementations so that the ratios of medians hold up,"
    echo "#            and the instruction counts below do not depend on load"
  fi
  echo "# command:   bench/requests.sh${REV:+ (REV=$REV)}: $COUNT rounds, each"
  echo "#              bench.test -test.run '^\$' -test.bench '$B1' -test.count 1 -test.benchtime $BENCHTIME"
  echo "#              bench.test -test.run '^\$' -test.bench '$B2' -test.count 1 -test.benchtime $BENCHTIME"
  echo "#              bench.test -test.run '^\$' -test.bench '$B3' -test.count 1 -test.benchtime $BENCHTIME"
  echo "#              rules.test -test.run '^\$' -test.bench '$B4' -test.count 1 -test.benchtime $BENCHTIME"
  echo "#            then bench/callgrind.sh (cmd/opcount under callgrind; N1=${N1:-20} N2=${N2:-220} runs for order/…)"
  echo "# sizes:     lines=3 is a body of $("$tmp/opcount" -body -n 3 | wc -c) bytes, lines=130 of $("$tmp/opcount" -body -n 130 | wc -c)"
  echo
  echo "## Targets: ratios of medians (go run ./cmd/ratios -only 29. results/requests-raw.txt)"
  echo
  echo "n is the order lines for 29.1-29.4, the users for 29.5 and 29.7, the pattern's index"
  echo "(rules/regex_bench_test.go) for 29.6."
  echo
  (cd "$src/bench" && go run ./cmd/ratios -only 29. "$raw") | sed -n '/^Targets/,$p'
  echo
  echo "## Instructions per call (callgrind: the same on a loaded machine)"
  echo
  echo "$counts"
  echo
  echo "ratios of instructions:"
  for n in 3 130; do
    echo "  lines=$n:"
    echo "    Bind / json+validator:                   $(ratio order/Bind order/json+validator $n)"
    echo "    Bind / json v2 Unmarshal alone:          $(ratio order/Bind order/jsonv2 $n)"
    echo "    Bind / goccy Unmarshal alone:            $(ratio order/Bind order/goccy $n)"
    echo "    Bind / MakeRequest:                      $(ratio order/Bind order/MakeRequest $n)"
    echo "    MakeRequest / json+validator:            $(ratio order/MakeRequest order/json+validator $n)"
    echo "    Bind failing / json+validator failing:   $(ratio order/Bind-failing order/json+validator-failing $n)"
    echo "    handler / huma:                          $(ratio order/handler order/huma $n)"
    echo "    Patch / MakeRequest of the full body:    $(ratio order/Patch order/MakeRequest $n)"
    echo "    Patch / merge+json+validator:            $(ratio order/Patch order/merge+json+validator $n)"
    echo "    Patch+Bind / merge+json+validator:       $(ratio order/Patch+Bind order/merge+json+validator $n)"
  done
  for n in 2 100; do
    echo "  users=$n:"
    for s in Select Only Except flag; do
      printf '    %-39s %s\n' "$s / plain AppendJSON:" "$(ratio "users/$s" users/AppendJSON $n)"
    done
  done
  echo "  users=2: AppendJSON / handwritten:       $(ratio users/AppendJSON users/handwritten 2)"
  for b in Request Shape Users SimplePattern; do
    echo
    echo "## $b side by side (benchstat -filter .name:$b -col /impl)"
    echo
    "$benchstat" -filter ".name:$b" -col /impl "$raw"
  done
} > "$out/requests.txt"
cat "$out/requests.txt"
