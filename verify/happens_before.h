// Happens-before over the host steps of a region plan (verify/region_checks.h):
// step a happens before step b when b awaits a's signal, when a is a kHost
// step before b (host code runs synchronously), or through a chain of such
// edges. Awaits of a timepoint no earlier step signals are ignored (rule 4
// reports them); a signal given twice stands for its first step.
//
// Per step, the set of non-host steps before it that happen before it,
// built in step order from the sets of the steps it awaits and of the last
// host step before it (a host step needs no entry: it happens before every
// later step). Each set is kept as a bitset over the non-host steps before
// it or as sorted runs of them, whichever is smaller: plans whose steps
// mostly follow each other (a pipeline of regions) have sets of a few runs.
// Cost for N steps, N' of them not host steps, and A awaits: O((N + A) *
// N' / 64) time; memory at most about N * N' / 16 bytes (the bitsets form a
// triangle), O(N) for pipelines; O(log) per query.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ir/region_plan.h"

namespace memplan::region_verify {

class HappensBefore {
 public:
  explicit HappensBefore(const std::vector<HostStep>& steps);

  // Whether step `a` happens before step `b` (false when a >= b).
  bool Precedes(std::size_t a, std::size_t b) const;

 private:
  // Non-host steps (by their index among them) that happen before a step.
  struct Set {
    bool dense = false;
    std::vector<std::uint64_t> bits;  // dense: bit i set for index i
    std::vector<std::uint32_t> runs;  // sparse: [runs[2k], runs[2k + 1]) ascending
  };
  static constexpr std::int64_t kHostStep = -1;

  // Adds set `set` to the bitset `into`.
  static void Merge(const Set& set, std::vector<std::uint64_t>& into);
  // `bits` in the smaller of the two forms.
  static Set Encode(const std::vector<std::uint64_t>& bits);

  std::vector<std::int64_t> index_;  // per step: its index among non-host steps, or kHostStep
  std::vector<Set> before_;          // per step
};

}  // namespace memplan::region_verify
