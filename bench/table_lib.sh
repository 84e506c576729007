# Sourced by the bench/*_table.sh scripts: their `--write FILE` argument, a
# scratch directory removed on exit, and the splice of a generated table into
# a Markdown file between `<!-- NAME:begin -->` and `<!-- NAME:end -->` lines.

# parse_write_arg "$@": sets WRITE to FILE for `--write FILE`, to "" for no
# arguments; anything else prints the usage and exits 2.
parse_write_arg() {
  WRITE=""
  if [[ $# -eq 2 && $1 == --write ]]; then
    WRITE=$2
  elif [[ $# -ne 0 ]]; then
    echo "usage: $0 [--write FILE]" >&2
    exit 2
  fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# splice_table NAME TABLE_FILE DOC: replaces the lines between the NAME
# markers of DOC (the markers stay) with the lines of TABLE_FILE.
splice_table() {
  local name=$1 table=$2 doc=$3
  awk -v table="$table" -v begin="<!-- $name:begin -->" -v end="<!-- $name:end -->" '
    $0 == begin { print; while ((getline line < table) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }' "$doc" >"$tmp/spliced"
  cp "$tmp/spliced" "$doc"
}

# reorder_inputs: sets `inputs` to the reordering benchmarks' inputs: every
# shared ONNX and TFLite model under $DATA_DIR, then the irregular DAGs that
# bench/irregular_dags.py writes into $tmp, by family and size.
reorder_inputs() {
  python3 "$(dirname "${BASH_SOURCE[0]}")/irregular_dags.py" "$tmp"
  inputs=()
  local f
  for f in "$DATA_DIR"/onnx/*/*.onnx "$DATA_DIR"/tflite/*.tflite; do [[ -e $f ]] && inputs+=("$f"); done
  for f in $(ls "$tmp"/*.mpir | sort -t- -k1,1 -k2,2n); do inputs+=("$f"); done
}
