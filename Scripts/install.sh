#!/usr/bin/env bash
# Builds a stripped release binary of vitrine with the Swift runtime linked in, and installs it as
# $DESTDIR$PREFIX/bin/vitrine (PREFIX defaults to /usr/local). The binary needs no Swift on the machine it runs
# on, only the system's libxml2 and SQLite (Debian: libxml2, libsqlite3-0).
#
#   Scripts/install.sh                     # into /usr/local/bin (run with sudo if that is not yours)
#   PREFIX=$HOME/.local Scripts/install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-/usr/local}
target="${DESTDIR:-}$prefix/bin"

swift build -c release --product vitrine --static-swift-stdlib
binary="$(swift build -c release --product vitrine --static-swift-stdlib --show-bin-path)/vitrine"
mkdir -p "$target"
install -m 0755 "$binary" "$target/vitrine.new"
strip "$target/vitrine.new"
mv -f "$target/vitrine.new" "$target/vitrine"
echo "installed $target/vitrine ($("$target/vitrine" --version), $(du -h "$target/vitrine" | cut -f1))"
