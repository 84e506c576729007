#!/usr/bin/env bash
# Installs every Debian package memplan's build, tests and demo need.
# Idempotent: does nothing when all are present; otherwise runs `apt-get update`
# once, then installs what is missing.
set -euo pipefail

packages=(
  build-essential cmake make pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libabsl-dev
  libprotobuf-dev protobuf-compiler libonnx-dev
  libflatbuffers-dev  # TFLite import (io/tflite/)
  jq  # bench scripts read JSON plans
  pybind11-dev python3-dev python3-pytest  # the Python package and its tests
  python3-torch python3-torchvision python3-matplotlib  # from_fx, Plan.plot and their tests
)
# `make fuzz`: clang and its libFuzzer runtime.
if [[ "${MEMPLAN_WITH_FUZZ:-0}" == 1 ]]; then
  packages+=(clang libclang-rt-dev)
fi
# Optional extras: headless Chromium for the memory-map screenshot check.
if [[ "${MEMPLAN_WITH_CHROMIUM:-0}" == 1 ]]; then
  packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
