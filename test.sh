#!/usr/bin/env bash
# Runs every check of every module in the repository: gofmt, go vet,
# staticcheck (a pinned version, installed here), go test with the race
# detector (fuzz targets run their seed corpora), the allocation tests
# again without it (the race detector allocates, so they skip under it),
# and the benchmarks once each, as tests, so they stay correct.
set -euo pipefail
cd "$(dirname "$0")"

# staticcheck's version is pinned: a new one may find new things. v0.8.2
# (2026.2.2) is the newest release and supports Go 1.26.
staticcheck_version=v0.8.2

modules=(. examples)
[ -f bench/go.mod ] && modules+=(bench)
# The schemas tested against validators (JSON Schema, OpenAPI): test-only
# dependencies, kept out of the library's go.mod.
[ -f schematest/go.mod ] && modules+=(schematest)

unformatted=$(gofmt -l . | grep -v '^testdata/' || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

gobin=$(go env GOPATH)/bin
staticcheck=$gobin/staticcheck
if ! "$staticcheck" -version 2>/dev/null | grep -qF "(${staticcheck_version#v})"; then
  echo "== installing staticcheck $staticcheck_version"
  GOBIN=$gobin go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi

# The schematest module runs the schemas through validators written in
# JavaScript too (ajv with ajv-formats, @seriousme/openapi-schema-validator),
# pinned in schematest/js/package-lock.json and installed here with npm ci
# (node 20 or later) when they are missing or older than the lock file.
js=schematest/js
if [ -f "$js/package-lock.json" ] && { [ ! -f "$js/node_modules/.package-lock.json" ] || [ "$js/package-lock.json" -nt "$js/node_modules/.package-lock.json" ]; }; then
  echo "== installing the schema validators (npm ci in $js)"
  (cd "$js" && npm ci --no-audit --no-fund)
fi

# The docs page's test (package api) loads it in headless Chromium,
# Debian's package, installed here when missing (apt-get, as root, without
# questions); with EXPOSE_BROWSER_TESTS set, a missing browser fails the
# test instead of skipping it.
if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing chromium (apt-get install chromium)"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
export EXPOSE_BROWSER_TESTS=1

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for m in "${modules[@]}"; do
  echo "== module $m"
  (cd "$m" && go vet ./... && "$staticcheck" ./...)
  (cd "$m" && go test -race -count=1 -timeout 40m ./...) | tee -a "$log"
done

# The one package that reads memory through unsafe.Pointer (struct
# fields at their offsets), and the entity tests that read structs through
# it, with every pointer conversion checked (-race checks them too; this
# run checks them without the race detector's instrumentation).
echo "== checkptr: internal/structread and entity's struct inputs"
go test -count=1 -gcflags=all=-d=checkptr ./internal/structread/
go test -count=1 -gcflags=all=-d=checkptr -run 'Struct|NilSlice|Valuer' ./entity/

echo "== allocation tests, without the race detector"
for m in "${modules[@]}"; do
  out=$(cd "$m" && go test -count=1 -run 'Alloc' -v ./... 2>&1) || { echo "$out"; exit 1; }
  # They skip only under the race detector or coverage: here every one runs.
  skipped=$(grep -E '^ *--- SKIP' <<<"$out" || true)
  if [ -n "$skipped" ]; then
    echo "allocation tests skipped without the race detector:"; echo "$skipped"; exit 1
  fi
  n=$(grep -cE '^--- PASS' <<<"$out" || true)
  echo "module $m: $n allocation tests passed"
done

echo "== benchmarks, once each, as tests"
for m in "${modules[@]}"; do
  (cd "$m" && go test -run '^$' -bench . -benchtime 1x ./... >/dev/null)
done
passed=$(grep -c '^ok ' "$log" || true)
echo "packages: $passed passed, 0 failed"
