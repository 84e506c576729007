#!/usr/bin/env bash
# Renders a generated HTML or SVG file (e.g. `memplan plan X --html map.html`)
# in headless Chromium and saves a PNG screenshot, to check the picture the
# way a user sees it.
#
# Usage: scripts/screenshot.sh FILE.html[#FRAGMENT] OUT.png [WIDTH,HEIGHT]   (default 1400,900)
# A fragment is passed on to the page: `map.html#all` shows the HTML map with
# the weights (its default view is the activations only).
# Needs Debian's `chromium` (apt-get install -y chromium). Network features are
# switched off; the files memplan writes need none.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 FILE.html OUT.png [WIDTH,HEIGHT]" >&2
  exit 2
fi
input=${1%%#*}
fragment=""
[[ $1 == *#* ]] && fragment="#${1#*#}"
output=$2
size=${3:-1400,900}
if [[ ! -f $input ]]; then
  echo "$0: error: no such file: $input" >&2
  exit 2
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "$0: error: chromium not found (apt-get install -y chromium)" >&2
  exit 2
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# Chromium resolves --screenshot relative to its working directory.
output_abs=$(realpath -m "$output")
input_url="file://$(realpath "$input")$fragment"

"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$profile" \
  --screenshot="$output_abs" --window-size="$size" "$input_url" >/dev/null 2>&1 || true

if [[ ! -s $output_abs ]]; then
  echo "$0: error: chromium wrote no screenshot for $input" >&2
  exit 1
fi
echo "wrote $output"
