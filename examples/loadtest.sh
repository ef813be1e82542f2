#!/usr/bin/env bash
# loadtest.sh: the seed's load test (msful's `ab -c 50 -n 10000 /api/test`)
# against the Go seed server, side by side with its twins:
#
#   /api/test          the seed payload made through the entity   vs
#   /const/test        the same bytes, precomputed (the ceiling)
#   /api/users?n=100   100 users made through the entity          vs
#   /naive/users?n=100 the same built as a map + encoding/json
#
# It installs ab (apache2-utils) and wrk from Debian if they are missing,
# builds and starts the server on 127.0.0.1 on a free port, waits until it
# answers, runs ab (as the seed: no keep-alive) and wrk (keep-alive) against
# each endpoint, prints requests/s, the server's CPU time per request and
# the ratios, and stops the server on exit. Loopback only; every ab or wrk
# run is killed after 120 s.
#
# Client and server share the machine: the load generator's own CPU time
# per request is the same for both sides of a pair, so it pulls requests/s
# ratios toward 1 (ab, which opens a connection per request, most). The
# server CPU ratio printed beside each ratio is what the server alone does.
#
#   examples/loadtest.sh                      # 5 rounds, about 2 minutes
#   ROUNDS=1 WRK_DURATION=3s examples/loadtest.sh
#
# Targets: /api/test >= 95% of /const/test, and
# /api/users?n=100 >= 3x /naive/users?n=100. The script prints PASS or FAIL
# for each and exits 0 either way (1 only when it cannot run); set
# STRICT=1 to exit 1 on a missed target.
set -euo pipefail
shopt -s inherit_errexit

AB_N=${AB_N:-10000}             # requests per ab run (the seed's -n)
AB_C=${AB_C:-50}                # ab concurrency (the seed's -c)
WRK_THREADS=${WRK_THREADS:-2}
WRK_CONNS=${WRK_CONNS:-50}
WRK_DURATION=${WRK_DURATION:-3s}
ROUNDS=${ROUNDS:-5}             # each pair is measured ROUNDS times; the median ratio counts
STRICT=${STRICT:-0}

cd "$(dirname "$0")"

# --- tools -----------------------------------------------------------------
missing=()
command -v ab >/dev/null || missing+=(apache2-utils)
command -v wrk >/dev/null || missing+=(wrk)
command -v curl >/dev/null || missing+=(curl)
if ((${#missing[@]})); then
	echo "installing ${missing[*]}" >&2
	sudo=()
	[[ $(id -u) == 0 ]] || sudo=(sudo)
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get update -qq >&2
	"${sudo[@]}" apt-get install -y -qq "${missing[@]}" >&2
fi

# --- server ----------------------------------------------------------------
work=$(mktemp -d)
server_pid=
cleanup() {
	if [[ -n $server_pid ]]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/seedserver" ./seedserver
"$work/seedserver" -addr 127.0.0.1:0 2>"$work/server.log" &
server_pid=$!

# The server logs the address it bound; wait for it, then for an answer.
addr=
for _ in $(seq 100); do
	addr=$(sed -n 's/.*seedserver listening on \(127\.0\.0\.1:[0-9]*\).*/\1/p' "$work/server.log")
	[[ -n $addr ]] && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
	sleep 0.1
done
[[ -n $addr ]] || { echo "the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
base="http://$addr"
for _ in $(seq 100); do
	curl -fsS -o /dev/null --max-time 1 "$base/api/test" && break
	sleep 0.1
done
curl -fsS -o /dev/null --max-time 1 "$base/api/test" || { echo "the server does not answer at $base" >&2; exit 1; }

# Each endpoint must answer 200 before it is timed.
endpoints=(/api/test /const/test "/api/users?n=100" "/naive/users?n=100")
for p in "${endpoints[@]}"; do
	curl -fsS -o /dev/null --max-time 5 "$base$p"
done

# --- load ------------------------------------------------------------------
cpu=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo)
echo "machine: $(nproc) cores, ${cpu:-unknown CPU}, $(go version | awk '{print $3, $4}'), $(uname -sr)"
echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC');  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tools:   $(ab -V | head -1 | sed 's/^This is //; s/ <.*//');  $(wrk -v 2>&1 | head -1 | awk '{print $1, $2}')"
lib=$(git -C .. log -1 --format='%h %s' 2>/dev/null | cut -c1-72) || lib=
if [[ -n $lib && -n $(git -C .. status --porcelain -- entity rules dsl 2>/dev/null) ]]; then
	lib+=" (+ uncommitted changes in entity/, rules/ or dsl/)"
fi
echo "library: ${lib:-unknown}"
echo "server:  $base (loopback), client and server on the same machine"
echo

# run_ab PATH: requests/s and requests done of one ab run; fails when a
# request failed.
run_ab() {
	local out
	out=$(timeout 120 ab -q -c "$AB_C" -n "$AB_N" "$base$1" 2>&1) || { echo "$out" >&2; return 1; }
	if ! grep -Eq '^Failed requests: +0$' <<<"$out" || grep -q '^Non-2xx responses' <<<"$out"; then
		echo "$out" >&2
		return 1
	fi
	awk '/^Requests per second:/ {r = $4} /^Complete requests:/ {n = $3} END {print r, n}' <<<"$out"
}

# run_wrk PATH: requests/s and requests done of one wrk run; fails on
# socket errors or non-2xx answers.
run_wrk() {
	local out
	out=$(timeout 120 wrk -t"$WRK_THREADS" -c"$WRK_CONNS" -d"$WRK_DURATION" "$base$1" 2>&1) || { echo "$out" >&2; return 1; }
	if grep -Eq 'Socket errors|Non-2xx' <<<"$out"; then
		echo "$out" >&2
		return 1
	fi
	awk '/^Requests\/sec:/ {r = $2} / requests in / {n = $1} END {print r, n}' <<<"$out"
}

# measure TOOL PATH: requests/s, and the server's CPU time (user + system,
# from /proc) per request in microseconds. The CPU time is the steadier
# number on a shared machine: neighbours slow the requests/s down, not the
# server's own work per request. (Its resolution is one clock tick.)
clk_tck=$(getconf CLK_TCK)
server_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
measure() {
	local t0 t1 out
	t0=$(server_ticks)
	out=$("run_$1" "$2") || return 1
	t1=$(server_ticks)
	if ! awk -v o="$out" 'BEGIN {split(o, f, " "); exit !(f[1] ~ /^[0-9.]+$/ && f[1] > 0 && f[2] > 0)}'; then
		echo "$1 $2: no requests/s in its output ($out)" >&2
		return 1
	fi
	awk -v o="$out" -v d=$((t1 - t0)) -v hz="$clk_tck" 'BEGIN {split(o, f, " "); printf "%s %.1f\n", f[1], d * 1e6 / hz / f[2]}'
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# Each pair is timed back to back, in alternating order from round to
# round, so that both sides see the same machine; a target is judged on the
# median of the per-round ratios.
pairs=("/api/test /const/test 0.95" "/api/users?n=100 /naive/users?n=100 3")
declare -A rps cpu ratios
for ((round = 1; round <= ROUNDS; round++)); do
	for tool in ab wrk; do
		for pair in "${pairs[@]}"; do
			read -r num den _ <<<"$pair"
			order=("$num" "$den")
			((round % 2)) || order=("$den" "$num")
			declare -A this=()
			for p in "${order[@]}"; do
				m=$(measure "$tool" "$p")
				read -r r us <<<"$m"
				this[$p]=$r
				rps[$tool $p]+="$r "
				cpu[$tool $p]+="$us "
				printf 'round %d  %-3s  %-20s %10.0f requests/s  %7.1f µs server CPU/request\n' "$round" "$tool" "$p" "$r" "$us"
			done
			ratios[$tool $num]+="$(awk -v a="${this[$num]}" -v b="${this[$den]}" 'BEGIN {printf "%.3f", a / b}') "
		done
	done
done

# --- report ----------------------------------------------------------------
values() { tr ' ' '\n' <<<"$1" | grep .; }
med() { values "$1" | median; }
echo
echo "ab -q -c $AB_C -n $AB_N $base<endpoint>"
echo "wrk -t$WRK_THREADS -c$WRK_CONNS -d$WRK_DURATION $base<endpoint>"
echo "$ROUNDS rounds; medians. CPU: the server's user+system time per request, in µs"
echo
printf '%-20s %10s %8s %10s %8s\n' endpoint "ab req/s" "ab CPU" "wrk req/s" "wrk CPU"
for pair in "${pairs[@]}"; do
	read -r num den _ <<<"$pair"
	for p in "$num" "$den"; do
		printf '%-20s %10.0f %8.1f %10.0f %8.1f\n' "$p" "$(med "${rps[ab $p]}")" "$(med "${cpu[ab $p]}")" \
			"$(med "${rps[wrk $p]}")" "$(med "${cpu[wrk $p]}")"
	done
done

echo
echo "requests/s ratios: the median of the per-round ratios (each pair timed back to back)"
failed=0
printf '%-38s %-4s %7s  %-13s %-8s %-6s %s\n' ratio tool median "rounds" target result "(server CPU ratio)"
for pair in "${pairs[@]}"; do
	read -r num den target <<<"$pair"
	for tool in ab wrk; do
		r=$(med "${ratios[$tool $num]}")
		lo=$(values "${ratios[$tool $num]}" | sort -g | head -1)
		hi=$(values "${ratios[$tool $num]}" | sort -g | tail -1)
		if awk -v r="$r" -v t="$target" 'BEGIN {exit !(r >= t)}'; then verdict=PASS; else verdict=FAIL failed=1; fi
		c=$(awk -v a="$(med "${cpu[$tool $den]}")" -v b="$(med "${cpu[$tool $num]}")" 'BEGIN {printf "%.2f", a / b}')
		printf '%-38s %-4s %6.3fx  %-13s >= %-5s %-6s (%sx)\n' "$num / $den" "$tool" "$r" "$lo-$hi" "${target}x" "$verdict" "$c"
	done
done

if ((failed && STRICT)); then
	exit 1
fi
