// Deterministic generator of DNN-like interval sets for benchmarks: `n` items
// over about n time steps (one new value per op), starts in schedule order.
// Most live ranges are short (an op's output read by the next few ops), some
// are medium (skip connections), a few are long (activations kept for later
// layers), and a handful span the whole program (inputs and outputs). Sizes
// are log-uniform between 256 B and 16 MiB, rounded up to 64 B. The same
// (n, seed) always gives the same items, on every platform (own SplitMix64
// generator, no std:: distributions).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/program.h"
#include "packing/packer.h"

namespace memplan {

struct SyntheticOptions {
  std::int64_t n = 1000;      // number of items
  std::uint64_t seed = 1;     // generator seed
  Bytes alignment = 1;        // alignment of every item
};

// `options.n` items; live ranges lie in [0, n - 1] (closed).
std::vector<PackItem> SyntheticItems(const SyntheticOptions& options);

// Dense inputs, the worst case for the global packers (same shapes as
// bench/dense_inputs.py writes for timing the CLI, other random numbers).
// All-live: `n` items live during [0, 1], sizes log-uniform in [64 B, 1 MiB];
// every pair of items overlaps.
std::vector<PackItem> AllLiveItems(std::int64_t n, std::uint64_t seed);
// Random rows: starts uniform in [0, 10^6), lengths uniform in [1, 10^4],
// sizes log-uniform in [64 B, 1 MiB]; about n / 100 items live at once
// (10^5 items: about 5 x 10^7 intersecting pairs).
std::vector<PackItem> RandomRowItems(std::int64_t n, std::uint64_t seed);

// A DNN-like scheduled program of `options.n` ops in one entry computation:
// op i reads the previous op's output, sometimes a second recent value and
// now and then a skip connection from far back; every 8th op writes in place
// (tied) and every 16th is a view (reshape) of its input. Sizes as above. Two
// entry params (an input and a weight) and one returned output.
Program SyntheticProgram(const SyntheticOptions& options);

}  // namespace memplan
