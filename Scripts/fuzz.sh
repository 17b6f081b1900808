#!/usr/bin/env bash
# Builds the libFuzzer targets with the address sanitizer and runs each for a bounded time, seeded from the
# fixtures. An input that crashes a target is copied to Tests/Fixtures/fuzz-regressions/<kind>/ (commit it: the
# tests replay it from then on) and to .ci/fuzz-crashes/, and the script fails.
# Usage: Scripts/fuzz.sh [SECONDS-PER-TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
runtime=$(ls /opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | head -1 || true)
# SwiftPM gives each executable a main of its own: libFuzzer's driver is started from it, and lld (not gold)
# links libFuzzer alongside.
export VITRINE_FUZZ=1
swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
  --product vitrine-fuzz-oaipmh
for product in vitrine-fuzz-json vitrine-fuzz-text; do
  swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --product "$product"
done
[ -n "$runtime" ] || echo "note: libFuzzer's runtime was not found where expected; the build found it anyway"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for kind in oaipmh json text; do
  corpus="$work/corpus-$kind"
  mkdir -p "$corpus" "$work/crashes-$kind"
  case "$kind" in
    oaipmh) find Tests/Fixtures -name '*.xml' -exec cp {} "$corpus/" \; ;;
    json) find Tests/Fixtures -name '*.json' -exec cp {} "$corpus/" \; ;;
    text) printf '120' >"$corpus/a"; printf 'Sun, 22 Nov 2026 10:00:30 GMT' >"$corpus/b"
          printf '<https://api.example/photos?page=2>; rel="next", <https://api.example/photos?page=9>; rel="last"' >"$corpus/c"
          printf '2026-02-28T10:00:00Z' >"$corpus/d"; printf 'https://user:pw@host/x?key=k' >"$corpus/e" ;;
  esac
  cp Tests/Fixtures/fuzz-regressions/"$kind"/* "$corpus/" 2>/dev/null || true
  echo "== fuzz $kind for ${seconds}s"
  if ! .build-fuzz/debug/vitrine-fuzz-"$kind" "$corpus" -max_total_time="$seconds" -max_len=262144 \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/crashes-$kind/" -print_final_stats=1 \
      >"$work/log-$kind" 2>&1; then
    failed=1
    tail -40 "$work/log-$kind"
    mkdir -p .ci/fuzz-crashes Tests/Fixtures/fuzz-regressions/"$kind"
    for crash in "$work/crashes-$kind"/*; do
      [ -f "$crash" ] || continue
      cp "$crash" .ci/fuzz-crashes/
      cp "$crash" Tests/Fixtures/fuzz-regressions/"$kind"/
      echo "crash input kept: Tests/Fixtures/fuzz-regressions/$kind/$(basename "$crash")"
    done
  else
    grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$work/log-$kind" | tail -2
  fi
done
exit "$failed"
