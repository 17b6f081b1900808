#!/usr/bin/env bash
# Deterministic counts (requests, pages, objects, files rendered and kept, files and bytes in the site) of a
# full run and a night (10,000 records, 1% changed, the benchmark's changing mock museum), checked against
# Benchmarks/counts.txt: CI fails when one grows past its recorded value. Wall time on these machines varies by a
# third; these counts do not. `Scripts/check-counts.sh --record` writes the file anew.
#
# Needs a built `vitrine` and `vitrine-benchmark` (debug is enough): BIN=.build/debug by default.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${BIN:-.build/debug}"
record="Benchmarks/counts.txt"
work=$(mktemp -d)
port=$((20000 + $$ % 20000))
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

serve() { # GENERATION
  [ -n "$server" ] && { kill "$server"; wait "$server" 2>/dev/null || true; }
  rm -f "$work/serve.log"
  "$bin/vitrine-benchmark" serve oai 10000 0 "$1" "$port" >"$work/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 300); do grep -q "mock museum" "$work/serve.log" 2>/dev/null && return; sleep 0.2; done
  echo "the mock museum did not start" >&2; cat "$work/serve.log" >&2; exit 1
}
run() { # NAME: one export into the same cache and output; its counts as `NAME.key value` lines
  "$bin/vitrine" export --source rijksmuseum --base-url "http://127.0.0.1:$port/oai" \
    --summary-json "$work/$1.json" --cache "$work/cache" --output "$work/site" >"$work/$1.log" 2>&1 ||
    { cat "$work/$1.log" >&2; exit 1; }
  local summary written
  summary=$(grep '^vitrine: ' "$work/$1.log" | tail -1)
  written=$(grep '^wrote ' "$work/$1.log" | tail -1)
  # Every request sent, Identify's included (the report's figure, not a log line's).
  echo "$1.requests $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["requests"])' "$work/$1.json")"
  echo "$1.pages $(sed -E 's/.*, ([0-9,]+) pages,.*/\1/' <<<"$summary" | tr -d ,)"
  echo "$1.objects $(sed -E 's/.*, ([0-9,]+) objects,.*/\1/' <<<"$summary" | tr -d ,)"
  if grep -q 'files rendered' <<<"$written"; then
    echo "$1.rendered $(sed -E 's/.*\(([0-9,]+) files rendered.*/\1/' <<<"$written" | tr -d ,)"
    echo "$1.kept $(sed -E 's/.*, ([0-9,]+) unchanged and kept.*/\1/' <<<"$written" | tr -d ,)"
  fi
  echo "$1.files $(find "$work/site/" -type f | wc -l)"
  echo "$1.bytes $(find "$work/site/" -type f -printf '%s\n' | awk '{ total += $1 } END { print total }')"
}

serve 0
run full >"$work/counts"
serve 1
run night >>"$work/counts"

if [ "${1:-}" = "--record" ]; then
  { echo "# Scripts/check-counts.sh: a count above its value here fails CI; lower ones are reported."; cat "$work/counts"; } >"$record"
  cat "$record"
  exit 0
fi
status=0
while read -r key value; do
  recorded=$(awk -v key="$key" '$1 == key { print $2 }' "$record")
  if [ -z "$recorded" ]; then
    echo "$key $value (not recorded)"
  elif [ "$value" -gt "$recorded" ]; then
    echo "$key $value, recorded $recorded: REGRESSED" >&2
    status=1
  elif [ "$value" -lt "$recorded" ]; then
    echo "$key $value, recorded $recorded: lower (record it with --record)"
  else
    echo "$key $value"
  fi
done <"$work/counts"
exit $status
