#!/usr/bin/env bash
# Times one night's incremental export (100,000 records, 1% changed, the output folder with its spare catalog, the
# steady state of a nightly job) for two or more builds, runs interleaved, and prints each build's median and
# fastest wall and CPU time. This machine's speed comes and goes by a third for minutes at a time, so one pair of
# runs tells nothing; ten interleaved pairs take about two minutes.
#
# Usage: Scripts/compare-nights.sh RUNS DIR [DIR ...]
#   each DIR holds a release `vitrine` and `vitrine-benchmark` (copy them out of .build/release per build).
# Each build first makes its own starting point (full run, then the first night), since builds whose fingerprints
# differ would otherwise re-render every page; then every round restores it and runs the second night under GNU
# time. Work goes to $TMPDIR (default /dev/shm: no disk), never to the user's page cache.
set -euo pipefail
runs="${1:?runs}"
shift
[ $# -ge 1 ] || { echo "usage: $0 RUNS DIR [DIR ...]" >&2; exit 64; }
root="${TMPDIR:-/dev/shm}/vitrine-nights-$$"
port=$((20000 + $$ % 20000))
mkdir -p "$root"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$root"' EXIT

serve() { # BIN GENERATION: the benchmark's changing museum, on a fixed port (the store is kept per base URL)
  [ -n "$server" ] && { kill "$server"; wait "$server" 2>/dev/null || true; }
  rm -f "$root/serve.log"  # the last server's line must not pass for this one's
  "$1/vitrine-benchmark" serve oai 100000 0 "$2" "$port" >"$root/serve.log" 2>&1 &
  server=$!
  until grep -q "mock museum" "$root/serve.log" 2>/dev/null; do sleep 0.2; done
}
export_into() { # BIN WORK [PREFIX...]: the nightly command, after PREFIX (a timer)
  local bin=$1 work=$2
  shift 2
  "$@" "$bin/vitrine" export --source rijksmuseum --base-url "http://127.0.0.1:$port/oai" --quiet \
    --cache "$work/cache" --output "$work/site"
}

for dir in "$@"; do
  name=$(basename "$dir")
  serve "$dir" 0
  export_into "$dir" "$root/start-$name"
  serve "$dir" 1
  export_into "$dir" "$root/start-$name"
done
serve "$1" 2
for _ in $(seq "$runs"); do
  for dir in "$@"; do
    name=$(basename "$dir")
    rm -rf "$root/night"
    cp -a "$root/start-$name" "$root/night"
    # The copy's folders are new ones: its records beside them are made theirs again, as before the copy.
    if [ -d "$root/night/.site.vitrine-records" ]; then
      "$dir/vitrine-benchmark" adopt-records "$root/night/site"
    fi
    export_into "$dir" "$root/night" /usr/bin/time -f "$name %e %U %S %M" -o "$root/time" 2>"$root/night.log" ||
      { cat "$root/night.log" >&2; exit 1; }
    cat "$root/time"
  done
done | tee "$root/times" >&2
python3 - "$root/times" <<'EOF'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, wall, user, system, peak = line.split()
    runs[name].append((float(wall), float(user) + float(system), int(peak) // 1024))
for name, values in runs.items():
    walls, cpus = [v[0] for v in values], [v[1] for v in values]
    print(f"{name}: {len(values)} nights, wall median {statistics.median(walls):.2f} s (fastest {min(walls):.2f}), "
          f"CPU median {statistics.median(cpus):.2f} s (least {min(cpus):.2f}), peak {max(v[2] for v in values)} MB")
EOF
