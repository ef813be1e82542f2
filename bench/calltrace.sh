#!/usr/bin/env bash
# Traces one warm call of operations of cmd/opcount function by function,
# with valgrind's callgrind, and counts for each the distinct source files
# of the library's functions it runs and the moves of control between
# functions of different files (cmd/calltrace says exactly what counts):
#
#   bench/calltrace.sh                      # the default operations, written to results/calltrace.txt
#   bench/calltrace.sh order/Bind:130 users/AppendJSON:100    # these, printed
#   NOINLINE=1 bench/calltrace.sh order/Bind:3                # the module built without inlining
#   VERBOSE=1 bench/calltrace.sh order/Bind:3                 # and the call's files and moves by pair of files
#   REV=main bench/calltrace.sh             # the library at a revision, with the work tree's bench/
#
# Each argument is an operation of cmd/opcount and its size (users, order
# lines). It runs twice under callgrind (--dump-instr=no, costs collected
# inside cmd/opcount's measure only), N1 and N2 warm calls after a cold
# one; cmd/calltrace counts the calls of the second run the first does not
# have, over N2-N1: one warm call's. The counts are those of the code as
# built: an inlined call is no call. With NOINLINE=1 the module is built
# with -l (no inlining), so that every call the source makes is counted.
# GODEBUG=asyncpreemptoff=1, GOGC=off and GOMAXPROCS=1, as callgrind.sh.
# It prints one line per operation: its name, size, files, moves and
# instructions per call.
#
# Without arguments it traces the seed's AppendJSON and Make at 2 users
# and the request benchmarks' shape at 3 order lines (a body of about
# 300 B): AppendJSON and Make of the order as a map, MakeRequest, Bind,
# Patch of 3 fields, Patch then Bind, and the POST handler; as built and
# without inlining, the details of each as built; and writes it all to
# results/calltrace.txt.
set -euo pipefail
cd "$(dirname "$0")"
N1=${N1:-10} N2=${N2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=..
if [ -n "${REV:-}" ]; then
  rev="$(git -C .. rev-parse --short "$REV") ($REV, with the work tree's bench/)"
  mkdir "$tmp/lib"
  git -C .. archive "$REV" | tar -x -C "$tmp/lib"
  rm -rf "$tmp/lib/bench"
  cp -r . "$tmp/lib/bench"
  src=$tmp/lib
else
  rev=$(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)
  if git -C .. status --porcelain -- entity rules dsl internal 2>/dev/null | grep -v -e '_test\.go$' -e '/testdata/' | grep -q .; then
    rev="$rev (with uncommitted changes in the library)"
  fi
fi
(cd "$src/bench" && go build -o "$tmp/opcount" ./cmd/opcount &&
  go build -gcflags='github.com/expose-go/expose/...=-l' -o "$tmp/opcount-l" ./cmd/opcount &&
  go build -o "$tmp/calltrace" ./cmd/calltrace)

trace() { # binary op n iter out
  GODEBUG=asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 valgrind --tool=callgrind --dump-instr=no \
    --compress-strings=no --compress-pos=no --toggle-collect=main.measure --callgrind-out-file="$5" \
    "$1" -op "$2" -n "$3" -iter "$4" >/dev/null 2>&1
}

table() { # noinline verbose op:n...
  local bin=$tmp/opcount noinline=$1 verbose=$2
  shift 2
  [ -n "$noinline" ] && bin=$tmp/opcount-l
  printf '%-22s %5s %6s %8s %10s\n' operation n files moves Ir/call
  for arg in "$@"; do
    local op=${arg%:*} n=${arg##*:}
    trace "$bin" "$op" "$n" "$N1" "$tmp/a.out"
    trace "$bin" "$op" "$n" "$N2" "$tmp/b.out"
    read -r _ files _ moves _ ir < <("$tmp/calltrace" -n1 "$N1" -n2 "$N2" "$tmp/a.out" "$tmp/b.out" | head -1)
    printf '%-22s %5d %6d %8.1f %10.0f\n' "$op" "$n" "$files" "$moves" "$ir"
    if [ -n "$verbose" ]; then
      "$tmp/calltrace" -n1 "$N1" -n2 "$N2" -v "$tmp/a.out" "$tmp/b.out" | tail -n +2 | sed 's/^/    /'
    fi
  done
}

if [ $# -gt 0 ]; then
  table "${NOINLINE:-}" "${VERBOSE:-}" "$@"
  exit
fi

ops=(users/AppendJSON:2 users/Make:2 order/AppendJSON:3 order/Make:3
  order/MakeRequest:3 order/Bind:3 order/Patch:3 order/Patch+Bind:3 order/handler:3)
out=results/calltrace.txt
{
  echo "# One warm call traced function by function: files and moves between files (bench/calltrace.sh)"
  echo "# date:      $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "# library:   $rev"
  echo "# go:        $(go version)"
  echo "# command:   bench/calltrace.sh${REV:+ (REV=$REV)}: callgrind --dump-instr=no --toggle-collect=main.measure"
  echo "#            of cmd/opcount, N1=$N1 and N2=$N2 warm calls, counted by cmd/calltrace"
  echo "#"
  echo "# files: the distinct source files of the module's functions (github.com/expose-go/expose/...,"
  echo "#        not bench/, cmd/, examples/) that ran in the call;"
  echo "# moves: the calls from a module function to a module function of another file, per call."
  echo "# Operations: users/… the seed's payload at 2 users (the map AppendJSON reads, Make of it);"
  echo "# order/… the request benchmarks' shape at 3 order lines: AppendJSON and Make of the order"
  echo "# as a map (bench.OrderMap), MakeRequest and Bind of its body (bench.OrderBody(3), 278 B),"
  echo "# Patch of 3 fields (bench.OrderPatch) onto the stored order (a struct), Patch then Bind of"
  echo "# the merged value, and the POST handler (Bind, then WriteStatus 201)."
  echo
  echo "## As built (inlined calls are not calls: the program that runs)"
  echo
  table "" "" "${ops[@]}"
  echo
  echo "## Built with -gcflags='github.com/expose-go/expose/...=-l' (no inlining: every call the source makes)"
  echo
  table 1 "" "${ops[@]}"
  echo
  echo "## Each call as built: its files (the functions that ran) and its moves by pair of files"
  echo
  table "" 1 "${ops[@]}"
} > "$out"
cat "$out"
