// What the `auto` packing portfolio did (packing/portfolio.h), carried from the
// packer to the plan, the summary and the JSON: which members ran, which were
// skipped and why, and the lower bound the peak is measured against.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/units.h"

namespace memplan {

// One member of the portfolio, in the order the portfolio considered them.
struct PackMemberReport {
  std::string name;    // the member's algorithm name, e.g. "best-fit-spatial"
  bool ran = false;    // its packing counted; false: skipped (see reason)
  Bytes peak = 0;      // its peak in bytes when it ran
  // Why it was skipped, e.g. "estimated 3.2 s over the 1.0 s budget" or
  // "lower bound reached by skyline-longest"; empty when it ran.
  std::string reason;
  // Wall-clock seconds it took (0 when skipped). Not deterministic: kept out
  // of byte-identical outputs unless asked for.
  double seconds = 0;
  // Work units (about 1 ns of one core each, packing/member_cost.h) it
  // counted as it ran, and the most it was allowed to count; unset for
  // members that do not count (online-best-fit, the fallback, always
  // finishes) and those that did not start. Deterministic: counts depend on
  // the input alone.
  std::optional<double> work;
  std::optional<double> allowance;
};

// The report of one kAuto run.
struct PackReport {
  std::string effort;                      // "fast", "default" or "max"
  std::vector<PackMemberReport> members;   // every candidate member, in order
  // True when a wall-clock --time-limit cut work (the result then depends on
  // the machine's speed and load, unlike a deterministic effort budget).
  bool time_limited = false;
  double seconds = 0;                      // wall-clock seconds of the whole run
};

}  // namespace memplan
