#include "verify/happens_before.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace memplan::region_verify {

HappensBefore::HappensBefore(const std::vector<HostStep>& steps) {
  std::map<std::string, std::size_t, std::less<>> signaller;  // first step signalling each
  std::size_t count = 0;                                      // non-host steps so far
  bool any_host = false;
  std::size_t last_host = 0;
  std::vector<std::uint64_t> scratch;
  index_.reserve(steps.size());
  before_.reserve(steps.size());
  for (std::size_t s = 0; s < steps.size(); ++s) {
    scratch.assign((count + 63) / 64, 0);
    // Step p happens before s: so do the steps before p.
    auto add = [&](std::size_t p) {
      Merge(before_[p], scratch);
      if (const std::int64_t i = index_[p]; i != kHostStep) {
        scratch[i / 64] |= std::uint64_t{1} << (i % 64);
      }
    };
    if (any_host) add(last_host);  // every earlier host step happens before it
    for (const std::string& tp : steps[s].awaits) {
      if (auto it = signaller.find(tp); it != signaller.end()) add(it->second);
    }
    before_.push_back(Encode(scratch));
    if (steps[s].kind == HostStepKind::kHost) {
      index_.push_back(kHostStep);
      any_host = true;
      last_host = s;
    } else {
      index_.push_back(static_cast<std::int64_t>(count++));
    }
    if (!steps[s].signal.empty()) signaller.emplace(steps[s].signal, s);
  }
}

void HappensBefore::Merge(const Set& set, std::vector<std::uint64_t>& into) {
  if (set.dense) {
    for (std::size_t w = 0; w < set.bits.size(); ++w) into[w] |= set.bits[w];
    return;
  }
  for (std::size_t k = 0; k < set.runs.size(); k += 2) {
    for (std::uint32_t i = set.runs[k]; i < set.runs[k + 1];) {
      if (i % 64 == 0 && i + 64 <= set.runs[k + 1]) {  // a whole word
        into[i / 64] = ~std::uint64_t{0};
        i += 64;
      } else {
        into[i / 64] |= std::uint64_t{1} << (i % 64);
        ++i;
      }
    }
  }
}

HappensBefore::Set HappensBefore::Encode(const std::vector<std::uint64_t>& bits) {
  // Runs take 8 bytes each, like a word of the bitset: keep fewer runs than
  // words, else the bitset.
  Set set;
  bool inside = false;
  for (std::size_t w = 0; w < bits.size(); ++w) {
    const std::uint64_t word = bits[w];
    if (word == (inside ? ~std::uint64_t{0} : 0)) continue;
    for (std::uint32_t b = 0; b < 64; ++b) {
      if (((word >> b) & 1) == inside) continue;
      set.runs.push_back(static_cast<std::uint32_t>(w * 64 + b));
      inside = !inside;
    }
    if (set.runs.size() >= 2 * bits.size()) return Set{true, bits, {}};
  }
  if (inside) set.runs.push_back(static_cast<std::uint32_t>(bits.size() * 64));
  return set;
}

bool HappensBefore::Precedes(std::size_t a, std::size_t b) const {
  if (a >= b || b >= index_.size()) return false;
  const std::int64_t i = index_[a];
  if (i == kHostStep) return true;
  const Set& set = before_[b];
  if (set.dense) return (set.bits[i / 64] >> (i % 64) & 1) != 0;
  // The run starting last at or before i.
  auto it = std::upper_bound(set.runs.begin(), set.runs.end(), static_cast<std::uint32_t>(i));
  const std::size_t k = static_cast<std::size_t>(it - set.runs.begin());
  return k % 2 == 1;  // i lies between a run's start and its end
}

}  // namespace memplan::region_verify
