// Small random straight-line programs for the time bounds' brute-force
// tests (tests/msa/time_bound_test.cc, hierarchy_time_bound_test.cc).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "fmt/format.h"

namespace memplan::testing {

// A random straight-line program of 1 to max_values - params ops and at most
// `max_values` values: 1-2 parameters, one result per op reading one or two
// earlier values (maybe one twice), sizes 0-160 bytes, random flops,
// sometimes bytes_accessed.
inline std::string RandomProgram(std::mt19937& rng, int max_values) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int params = pick(1, 2);
  const int ops = pick(1, max_values - params);
  std::vector<std::string> names;
  std::string header;
  for (int p = 0; p < params; ++p) {
    names.push_back(fmt::format("%p{}", p));
    header += fmt::format("{}{}: u8[{}]", p ? ", " : "", names.back(), pick(0, 4) * 40);
  }
  std::string body;
  for (int o = 0; o < ops; ++o) {
    const int arity = pick(1, 2);
    std::vector<std::string> operands;
    for (int k = 0; k < arity; ++k) {
      operands.push_back(names[pick(0, static_cast<int>(names.size()) - 1)]);
    }
    std::string attrs = fmt::format("flops = {}", pick(0, 3) * 100);
    if (pick(0, 3) == 0) attrs += fmt::format(", bytes_accessed = {}", pick(0, 4) * 50);
    const std::string result = fmt::format("%v{}", o);
    body += fmt::format("  {} = custom.op{}({}{}) : u8[{}] {{{}}}\n", result, o, operands[0],
                        arity == 2 ? ", " + operands[1] : "", pick(0, 4) * 40, attrs);
    names.push_back(result);
  }
  return fmt::format("entry func @main({}) {{\n{}  return {}\n}}\n", header, body, names.back());
}

}  // namespace memplan::testing
