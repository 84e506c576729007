// What the `auto` packing portfolio did (packing/portfolio.h), carried from the
// packer to the plan, the summary and the JSON: which members ran, which were
// skipped and why, and the lower bound the peak is measured against.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/units.h"

namespace memplan {

// Seconds of one reference core per work unit: the portfolio's work counts
// and budgets (packing/member_cost.h) are estimated in units of about 1 ns,
// and reports give them as seconds, e.g. 1.25e9 units -> 1.25 s.
inline constexpr double kSecondsPerWorkUnit = 1e-9;

// One member of the portfolio, in the order the portfolio considered them.
struct PackMemberReport {
  std::string name;    // the member's algorithm name, e.g. "best-fit-spatial"
  bool ran = false;    // its packing counted; false: skipped or stopped (see reason)
  Bytes peak = 0;      // its peak in bytes when it ran
  // Why it was skipped or stopped, e.g. "estimated 3.2 s over the 1.0 s budget" or
  // "lower bound reached by skyline-longest"; empty when it ran, but for the
  // exact member when its budget ended before it proved its peak the lowest
  // ("its node budget ended before it proved this peak the lowest (raise
  // --effort)").
  std::string reason;
  // Wall-clock seconds it took (0 when skipped). Not deterministic: kept out
  // of byte-identical outputs unless asked for.
  double seconds = 0;
  // Work units (kSecondsPerWorkUnit each, packing/member_cost.h) it counted
  // as it ran, and the most it was allowed to count; unset for members that
  // do not count (online-best-fit, the fallback, always finishes) and those
  // that did not start. So a member with `work` set that did not run was
  // stopped part way (MemberStopped). Deterministic: counts depend on the
  // input alone, except for a member --time-limit stopped.
  std::optional<double> work;
  std::optional<double> allowance;
  // The exact member (packing/exact_member.h) only, when it found a packing:
  // the capacity of the decision that found it, in bytes (`--algorithm
  // exact --capacity` that many gives the same offsets).
  std::optional<Bytes> capacity;
  // True when `reason` gives work or a work budget in the estimated seconds
  // of packing/member_cost.h (e.g. "estimated 1.28 s of work, over the 1.23
  // s left of its lane's 1.25 s budget"): the summary then says what those
  // seconds are.
  bool quotes_work = false;
  // True for a member that did all its work but has no packing of its own
  // to offer (`ran` false): the exact member when it proved the best peak
  // optimal, or spent its node budget finding none lower. `reason` says
  // which. Listed as `searched`, neither stopped nor skipped.
  bool finished = false;
};

// True for a member that started but did not finish: it counted work (its
// allowance ran out, or --time-limit stopped it) and has no packing. False
// for members that ran, finished, or were skipped before they started.
inline bool MemberStopped(const PackMemberReport& member) {
  return !member.ran && !member.finished && member.work.has_value();
}

// True for a member listed `searched`: it finished without a packing of
// its own (PackMemberReport::finished).
inline bool MemberSearched(const PackMemberReport& member) { return !member.ran && member.finished; }

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
