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
# The docs show each example's output: the first fenced block after the
# line starting with MARKER in DOC must equal what PROGRAM prints.
check_documented() {  # DOC MARKER PROGRAM
  awk -v marker="$2" 'index($0, marker) == 1 {found = 1}
       found && /^```$/ {if (inside) exit; inside = 1; next} inside' "$source/$1" >"$tmp/documented"
  "$3" >"$tmp/real"
  if ! diff "$tmp/documented" "$tmp/real" >&2; then
    echo "$1: the documented output of $(basename "$3") differs from its real output" >&2
    exit 1
  fi
}
check_documented docs/library.md "Its output" "$tmp/consumer/transformer_block"
check_documented docs/tutorials/cpp-api.md "## The output" "$tmp/consumer/compiler_buffers"
cat "$tmp/out.cmake"
