#!/usr/bin/env bash
# Runs every test of every module in the repository: gofmt, go vet, and
# go test with the race detector (fuzz targets run their seed corpora;
# benchmarks run once each, as tests, so they stay correct).
set -euo pipefail
cd "$(dirname "$0")"

modules=(. examples)
[ -f bench/go.mod ] && modules+=(bench)

unformatted=$(gofmt -l . | grep -v '^testdata/' || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for m in "${modules[@]}"; do
  echo "== module $m"
  (cd "$m" && go vet ./... && go test -race -count=1 ./...) | tee -a "$log"
done

echo "== benchmarks, once each, as tests"
for m in "${modules[@]}"; do
  (cd "$m" && go test -run '^$' -bench . -benchtime 1x ./... >/dev/null)
done
passed=$(grep -c '^ok ' "$log" || true)
echo "packages: $passed passed, 0 failed"
