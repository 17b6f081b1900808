#!/usr/bin/env bash
# Formats every tracked Swift file with the toolchain's swift-format (.swift-format holds the rules), then runs
# the same strict lint .ci/run runs, so what passes here passes in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files '*.swift')
# shellcheck disable=SC2086
swift format format --in-place $files
# shellcheck disable=SC2086
swift format lint --strict $files
echo "formatted and linted $(echo "$files" | wc -l) Swift files"
