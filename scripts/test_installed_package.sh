#!/usr/bin/env bash
# The installed package works for a consumer: `cmake --install` of BUILD into a
# temporary prefix, then examples/cpp built against it with find_package and,
# separately, with pkg-config, and run. Usage: test_installed_package.sh BUILD SOURCE
set -euo pipefail
build=$1
source=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/memplan"
cmake -S "$source/examples/cpp" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/transformer_block" >"$tmp/out.cmake"
PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" \
  c++ -std=c++20 "$source/examples/cpp/transformer_block.cc" -o "$tmp/by_pkg_config" \
  $(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs memplan) \
  -Wl,-rpath,"$tmp/prefix/lib"
"$tmp/by_pkg_config" >"$tmp/out.pkg"
cmp "$tmp/out.cmake" "$tmp/out.pkg"
# No public header includes the library's internals or a third-party header
# other than abseil's status types.
if grep -hE '#include "' "$tmp/prefix/include/memplan/"*.h | grep -vE '"(memplan/|absl/status/)'; then
  echo "a public header includes an internal or third-party header" >&2
  exit 1
fi
# docs/library.md shows this output: the fenced block after "Its output".
awk '/^Its output/ {found = 1} found && /^```$/ {if (inside) exit; inside = 1; next} inside' \
  "$source/docs/library.md" >"$tmp/documented"
if ! diff "$tmp/documented" "$tmp/out.cmake" >&2; then
  echo "docs/library.md: the example's documented output differs from its real output" >&2
  exit 1
fi
cat "$tmp/out.cmake"
