#include "packing/exact_member.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "fmt/format.h"
#include "packing/exact/exact_packer.h"

namespace memplan {

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
        WorkSeconds(budget.exact_work), RaiseEffortHint(options.effort));
    return out;
  }
  if (deadline && PackClock::now() >= *deadline) {
    out.time_limited = true;
    out.report.reason = "earlier members used up --time-limit (raise --time-limit)";
    return out;
  }
  const bool any_gaps =
      std::any_of(items.begin(), items.end(), [](const PackItem& item) { return !item.gaps.empty(); });
  const PackClock::time_point begin = PackClock::now();
  PackOptions exact_options;
  exact_options.alignment = options.alignment;
  std::int64_t spent = 0;
  Bytes target = lower_bound;
  bool budget_ended = false;
  // Decide at the bound; a proof of infeasibility lifts it (a proven bound
  // of the items read without gaps: a bound of the input only without
  // them, a target either way).
  while (target < best_peak) {
    exact_options.capacity = target;
    if (deadline) {
      const double left = std::chrono::duration<double>(*deadline - PackClock::now()).count();
      if (left <= 0) {
        out.time_limited = true;
        break;
      }
      exact_options.time_limit_seconds = left;
    }
    PackResult result = ExactPack(items, exact_options, threads, node_budget - spent);
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
      out.packed = std::move(result);
      break;
    }
    if (result.search_status == SearchStatus::kInfeasible) {
      target = result.proven_lower_bound;
      if (!any_gaps) out.lower_bound = std::max(out.lower_bound, std::min(target, best_peak));
      continue;
    }
    budget_ended = result.search_node_budget_ended;
    out.time_limited = !budget_ended;
    break;
  }
  out.report.seconds = std::chrono::duration<double>(PackClock::now() - begin).count();
  out.report.work = static_cast<double>(spent) * node_work;
  out.report.allowance = static_cast<double>(node_budget) * node_work;
  if (out.packed) {
    out.report.ran = true;
    out.report.peak = out.packed->peak;
  } else if (out.time_limited) {
    out.report.reason = "stopped by --time-limit before it finished (raise --time-limit)";
  } else if (budget_ended) {
    out.report.reason = fmt::format(
        "found no packing at {} B within its {} nodes ({} of work){}", target, node_budget,
        WorkSeconds(static_cast<double>(node_budget) * node_work), RaiseEffortHint(options.effort));
  } else if (any_gaps) {
    out.report.reason = fmt::format(
        "proved that no packing below {} B exists with gaps read as live", best_peak);
  } else {
    out.report.reason = fmt::format("proved the best peak, {} B, optimal", best_peak);
  }
  return out;
}

}  // namespace memplan
