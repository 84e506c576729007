#include "packing/exact_member.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "fmt/format.h"
#include "ir/plural.h"
#include "packing/exact/descent_ladder.h"
#include "packing/exact/exact_packer.h"
#include "packing/exact/exact_problem.h"
#include "packing/pack_support.h"

namespace memplan {
namespace {

// Decisions re-read the input (reduction, incumbent: about 1 ms at a few
// hundred buffers), so the descent from above stops after this many.
constexpr int kMaxDecisions = 100;

// Every peak of a canonical packing is a multiple of this (bytes): the gcd
// of the sizes, the alignments above 1 and the fixed offsets (as
// exact::PeakGranularity).
Bytes PeakGranularity(const std::vector<PackItem>& items, Bytes alignment) {
  Bytes g = 0;
  for (const PackItem& item : items) {
    g = exact::AddToPeakGranularity(g, item.size, EffectiveAlignment(item, alignment),
                                    item.fixed_offset());
  }
  return g < 1 ? 1 : g;
}

}  // namespace

ExactMemberOutcome RunExactMember(const std::vector<PackItem>& items, const PackOptions& options,
                                  const InputShape& shape, Bytes best_peak, Bytes lower_bound,
                                  int threads, const PackDeadline& deadline) {
  ExactMemberOutcome out;
  out.lower_bound = lower_bound;
  out.report.name = std::string(kExactMemberName);
  const EffortBudget budget = BudgetFor(options.effort, shape);
  if (budget.exact_work <= 0) {
    out.report.reason = "not run at --effort fast (it has no exact search budget)";
    return out;
  }
  const double node_work = ExactNodeWork(shape);
  const auto node_budget = static_cast<std::int64_t>(budget.exact_work / node_work);
  const std::int64_t first_round = ExactFirstRoundNodes(shape.items);
  if (node_budget < first_round) {
    out.report.reason = fmt::format(
        "its first round of restarts ({} nodes, estimated {} of work) does not fit its {} "
        "budget{}",
        first_round, WorkSeconds(static_cast<double>(first_round) * node_work),
        WorkSeconds(budget.exact_work),
        RaiseEffortHint(options.effort,
                        static_cast<double>(first_round) * node_work <=
                            BudgetFor(PackEffort::kMax, shape).exact_work,
                        kExactMemberName));
    out.report.quotes_work = true;
    return out;
  }
  if (deadline && PackClock::now() >= *deadline) {
    out.time_limited = true;
    out.report.reason = "earlier members used up --time-limit (raise --time-limit)";
    return out;
  }
  const bool any_gaps = AnyItemHasGaps(items);
  const PackClock::time_point begin = PackClock::now();
  std::int64_t spent = 0;
  Bytes best = best_peak;
  Bytes target = lower_bound;  // no packing below it (proven or max-live)
  int decisions = 0;
  // One budgeted decision at `capacity` with at most `nodes` of the budget;
  // a packing found becomes the member's best.
  const auto decide = [&](Bytes capacity, std::int64_t nodes) {
    PackOptions exact_options;
    exact_options.alignment = options.alignment;
    exact_options.capacity = capacity;
    if (deadline) {
      const double left = std::chrono::duration<double>(*deadline - PackClock::now()).count();
      if (left <= 0) {
        out.time_limited = true;
        return SearchStatus::kStopped;
      }
      exact_options.time_limit_seconds = left;
    }
    ++decisions;
    PackResult result = ExactPack(items, exact_options, threads, nodes);
    spent += result.search_node_budget_spent;
    if (result.search_status == SearchStatus::kFeasible ||
        result.search_status == SearchStatus::kOptimal) {
      // A member's packing, not a search the user asked for: the plan
      // reports no search status for it.
      result.lower_bound = lower_bound;
      result.proven_lower_bound = 0;
      result.search_status = SearchStatus::kNotSearched;
      result.search_nodes = 0;
      result.search_time_limit_seconds = 0;
      result.search_node_budget_spent = 0;
      best = result.peak;
      out.report.capacity = capacity;
      out.packed = std::move(result);
      return SearchStatus::kFeasible;
    }
    if (result.search_status == SearchStatus::kInfeasible) {
      // A proof for the items read without gaps: a bound of the input only
      // without them, a target either way.
      target = std::max(target, std::min(result.proven_lower_bound, best));
      return SearchStatus::kInfeasible;
    }
    if (!result.search_node_budget_ended) out.time_limited = true;
    return SearchStatus::kStopped;
  };
  const auto left = [&] { return node_budget - spent; };
  // 1. The capacity the caller must fit (`--capacity`), when the best peak
  //    is above it: a packing there is what the plan needs. Three quarters
  //    of the budget, as the bound gets in step 2: the rest still lowers
  //    the peak when none is found, so the plan's failure reports the
  //    lowest peak the member can reach.
  const bool at_capacity =
      options.capacity && *options.capacity >= lower_bound && *options.capacity < best;
  const Bytes capacity = at_capacity ? *options.capacity : 0;
  bool capacity_undecided = false;  // step 1 ended at its node limit
  if (at_capacity) {
    capacity_undecided = decide(capacity, left() / 4 * 3) == SearchStatus::kStopped;
  }
  // 2. The bound, lifted by each proof, with three quarters of what is
  //    left (MiniMalloc's E needs 0.63 of the default budget there); on
  //    inputs with no packing there (D, J) the decision rarely concludes,
  //    and the rest goes to step 3. Not when step 1 found no packing at a
  //    capacity above the bound: deciding lower is harder.
  const std::int64_t at_bound = spent + left() / 4 * 3;
  while (target < best && !out.time_limited && !capacity_undecided && at_bound - spent > 0) {
    if (decide(target, at_bound - spent) != SearchStatus::kInfeasible) break;
  }
  // 3. From above: decisions between the target and the best, by a
  //    DescentLadder (a proof at best - 1 makes the best optimal), while
  //    the budget lasts. At most kMaxDecisions decisions in all, as each
  //    re-reads the input.
  exact::DescentLadder ladder(target, best, PeakGranularity(items, options.alignment),
                              2 * ExactFirstRoundNodes(shape.items));
  while (!out.time_limited && left() > 0 && decisions < kMaxDecisions) {
    const std::optional<exact::DescentLadder::Probe> probe = ladder.Next();
    if (!probe) break;
    const SearchStatus status = decide(probe->capacity, std::min(probe->nodes, left()));
    if (status == SearchStatus::kFeasible) ladder.Found(best);
    if (status == SearchStatus::kInfeasible) ladder.Proven(probe->capacity);
    if (status == SearchStatus::kStopped) {
      if (out.time_limited) break;
      ladder.Cut();
    }
  }
  target = std::max(target, ladder.bound());
  if (!any_gaps) out.lower_bound = std::max(out.lower_bound, target);
  out.report.seconds = std::chrono::duration<double>(PackClock::now() - begin).count();
  out.report.work = static_cast<double>(spent) * node_work;
  out.report.allowance = static_cast<double>(node_budget) * node_work;
  // Its node budget, for the reasons below: "796646 nodes (1.81 s of work)".
  const std::string budget_spent =
      fmt::format("{} nodes ({} of work)", node_budget,
                  WorkSeconds(static_cast<double>(node_budget) * node_work));
  const std::string more_effort = RaiseEffortHint(options.effort, true, kExactMemberName);
  // Did all its work (neither a packing of its own nor a clock stopped it).
  out.report.finished = !out.packed && !out.time_limited;
  if (out.packed) {
    out.report.ran = true;
    out.report.peak = out.packed->peak;
    // Neither proven the lowest nor stopped by the clock: more nodes may
    // lower it (or fit the caller's capacity, which the driver's failure
    // then quotes).
    if (!out.time_limited && at_capacity && out.packed->peak > capacity) {
      out.report.reason = fmt::format("found no packing within {} in its node budget{}",
                                      CountOf(capacity, "byte"), more_effort);
    } else if (!out.time_limited && target < best) {
      out.report.reason = "its node budget ended before it proved this peak the lowest" + more_effort;
    }
  } else if (out.time_limited) {
    out.report.reason = "stopped by --time-limit before it finished (raise --time-limit)";
  } else if (at_capacity && target > capacity && !any_gaps) {
    out.report.reason = fmt::format("{} {}: every packing needs at least {}",
                                    kExactMemberCapacityProof, CountOf(capacity, "byte"),
                                    CountOf(target, "byte"));
  } else if (at_capacity) {
    out.report.reason =
        fmt::format("found no packing within {} (nor a proof that none exists) in its {}{}",
                    CountOf(capacity, "byte"), budget_spent, more_effort);
    out.report.quotes_work = true;
  } else if (target < best) {
    out.report.reason = fmt::format("found no packing below {} within its {}{}",
                                    CountOf(best, "byte"), budget_spent, more_effort);
    out.report.quotes_work = true;
  } else if (any_gaps) {
    out.report.reason = fmt::format(
        "proved that no packing below {} exists with gaps read as live", CountOf(best_peak, "byte"));
  } else {
    out.report.reason = fmt::format("proved the best peak, {}, optimal", CountOf(best_peak, "byte"));
  }
  return out;
}

}  // namespace memplan
