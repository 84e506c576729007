// Test-only helpers for the packing tests: an O(n^2) brute-force packing
// checker, a random item generator with a fixed seed, and a tiny reader for
// `id,lower,upper,size` CSVs (half-open ranges, converted to closed ones).
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "packing/packer.h"

namespace memplan::testing {

// The five-buffer example of packing/best_fit.h (docs/packing.md), as {size,
// alignment, start, end}: a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8] e(50)[5,9].
inline std::vector<PackItem> XlaExample() {
  return {{10, 1, 0, 3}, {20, 1, 1, 6}, {40, 1, 2, 7}, {30, 1, 4, 8}, {50, 1, 5, 9}};
}

// The steps of [item.start, item.end] outside its gaps, as closed ranges
// (the test's own restatement of PackItem::gaps).
inline std::vector<std::pair<TimeStep, TimeStep>> LiveSteps(const PackItem& item) {
  std::vector<std::pair<TimeStep, TimeStep>> pieces;
  TimeStep from = item.start;
  for (const StepRange& gap : item.gaps()) {
    pieces.emplace_back(from, gap.first - 1);
    from = gap.last + 1;
  }
  pieces.emplace_back(from, item.end);
  return pieces;
}

// Whether two items hold data at a common step.
inline bool LiveTogether(const PackItem& a, const PackItem& b) {
  for (const auto& [s1, e1] : LiveSteps(a)) {
    for (const auto& [s2, e2] : LiveSteps(b)) {
      if (s1 <= e2 && s2 <= e1) return true;
    }
  }
  return false;
}

// Empty string if `offsets` is a valid packing of `items` with peak `peak`:
// one offset per item, every offset a non-negative multiple of
// max(item.alignment, alignment), zero-size items at 0, no two items that are
// live at a common time (outside their gaps) overlap in [offset, offset + size), and peak equals
// max(offset + size). Otherwise a description of the first violation.
inline std::string CheckPacking(const std::vector<PackItem>& items,
                                const std::vector<Bytes>& offsets, Bytes peak,
                                Bytes alignment) {
  if (offsets.size() != items.size()) return "wrong number of offsets";
  Bytes top = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Bytes align = std::max<Bytes>({items[i].alignment, alignment, 1});
    if (items[i].size == 0) {
      if (offsets[i] != 0) return "zero-size item " + std::to_string(i) + " not at 0";
      continue;
    }
    if (offsets[i] < 0 || offsets[i] % align != 0) {
      return "item " + std::to_string(i) + " misaligned at " + std::to_string(offsets[i]);
    }
    top = std::max(top, offsets[i] + items[i].size);
    for (std::size_t j = 0; j < i; ++j) {
      if (items[j].size == 0) continue;
      const bool live_together = LiveTogether(items[i], items[j]);
      const bool overlap = offsets[i] < offsets[j] + items[j].size &&
                           offsets[j] < offsets[i] + items[i].size;
      if (live_together && overlap) {
        return "items " + std::to_string(j) + " and " + std::to_string(i) + " overlap";
      }
    }
  }
  if (top != peak) return "peak " + std::to_string(peak) + " but items reach " + std::to_string(top);
  return "";
}

// `n` items with ranges in [0, horizon), sizes in [0, max_size] (some zero),
// alignments in {1, 2, 4, 8, 16}; deterministic for a given seed.
inline std::vector<PackItem> RandomItems(int n, TimeStep horizon, Bytes max_size,
                                         std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<PackItem> items(n);
  for (PackItem& item : items) {
    item.start = static_cast<TimeStep>(rng() % horizon);
    item.end = item.start + static_cast<TimeStep>(rng() % (horizon - item.start));
    item.size = rng() % 10 == 0 ? 0 : 1 + static_cast<Bytes>(rng() % max_size);
    item.alignment = Bytes{1} << (rng() % 5);
  }
  return items;
}

// Reads an `id,lower,upper,size` CSV; `ok` is false if it cannot be read.
inline std::vector<PackItem> ReadIntervalCsv(const std::string& path, bool& ok) {
  std::ifstream in(path);
  ok = static_cast<bool>(in);
  std::string line;
  std::getline(in, line);  // header
  std::vector<PackItem> items;
  while (ok && std::getline(in, line)) {
    std::stringstream fields(line);
    std::string id, lower, upper, size;
    std::getline(fields, id, ',');
    std::getline(fields, lower, ',');
    std::getline(fields, upper, ',');
    std::getline(fields, size, ',');
    PackItem item;
    item.start = std::stoll(lower);
    item.end = std::stoll(upper) - 1;
    item.size = std::stoll(size);
    items.push_back(item);
  }
  return items;
}

}  // namespace memplan::testing
