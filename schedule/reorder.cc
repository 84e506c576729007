#include "schedule/reorder.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "analysis/alias_sets.h"
#include "analysis/analyze.h"
#include "analysis/live_profile.h"
#include "schedule/exact_order.h"
#include "schedule/lower_bound.h"
#include "schedule/order_problem.h"
#include "schedule/strategies.h"

namespace memplan {
namespace {

using Orders = std::vector<UnitOrder>;  // per computation

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Program WithOrders(const Program& program, const std::vector<OrderProblem>& problems, const Orders& orders) {
  Program out = program;
  for (std::size_t c = 0; c < problems.size(); ++c) {
    std::vector<OpId>& ops = out.computations[c].ops;
    for (std::size_t i = 0; i < orders[c].size(); ++i) ops[i] = problems[c].ops[orders[c][i]];
  }
  return out;
}

// Can a strategy change this computation's order at all?
bool Reorderable(const OrderProblem& p) { return !p.fixed && p.size() > 1; }

}  // namespace

absl::StatusOr<Bytes> TransientMaxLive(const Program& program) {
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(program);
  if (!analysis.ok()) return analysis.status();
  return ComputeLivePeak(analysis->buffers, [](const Buffer& b) {
           return b.lifetime == Lifetime::kTransient;
         }).peak;
}

absl::StatusOr<ReorderResult> ReorderProgram(const Program& program, const ReorderOptions& options) {
  absl::StatusOr<Bytes> input_peak = TransientMaxLive(program);
  if (!input_peak.ok()) return input_peak.status();
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(program);
  if (!sets.ok()) return sets.status();
  const std::vector<OrderProblem> problems = BuildOrderProblems(program, *sets);
  const std::size_t nc = problems.size();

  ReorderResult result;
  result.input_peak = *input_peak;
  for (const OrderProblem& p : problems) result.lower_bound = std::max(result.lower_bound, OrderLowerBound(p));

  // The best order per computation by the model, over the rows so far.
  Orders best(nc);
  std::vector<Bytes> best_model(nc);
  for (std::size_t c = 0; c < nc; ++c) {
    best[c] = InputOrder(problems[c]);
    best_model[c] = ModelPeak(problems[c], best[c]);
  }
  std::vector<std::pair<ReorderRow, Orders>> candidates;
  candidates.push_back({ReorderRow{"input", *input_peak, 0}, best});
  const auto add = [&](std::string name, Orders orders, double seconds) -> absl::Status {
    for (std::size_t c = 0; c < nc; ++c) {
      const Bytes model = ModelPeak(problems[c], orders[c]);
      if (model < best_model[c]) {
        best_model[c] = model;
        best[c] = orders[c];
      }
    }
    absl::StatusOr<Bytes> peak = TransientMaxLive(WithOrders(program, problems, orders));
    if (!peak.ok()) return peak.status();
    candidates.push_back({ReorderRow{std::move(name), *peak, seconds}, std::move(orders)});
    return absl::OkStatus();
  };
  for (const PeerStrategy& peer : PeerStrategies()) {
    const auto start = std::chrono::steady_clock::now();
    Orders orders(nc);
    for (std::size_t c = 0; c < nc; ++c) orders[c] = peer.order(problems[c]);
    if (absl::Status s = add(std::string(peer.name), std::move(orders), SecondsSince(start)); !s.ok()) {
      return s;
    }
  }
  {
    std::int64_t units = 0;
    for (const OrderProblem& p : problems) units += p.size();
    const auto start = std::chrono::steady_clock::now();
    Orders orders(nc);
    for (std::size_t c = 0; c < nc; ++c) {
      const std::int64_t share =
          units == 0 ? 0 : options.local_search_work / units * problems[c].size();
      orders[c] = LocalSearchOrder(problems[c], best[c], share);
    }
    if (absl::Status s = add("local-search", std::move(orders), SecondsSince(start)); !s.ok()) return s;
  }
  {
    const auto start = std::chrono::steady_clock::now();
    Orders orders = best;
    std::int32_t reorderable = 0;
    for (std::size_t c = 0; c < nc; ++c) {
      if (!Reorderable(problems[c])) continue;
      ++reorderable;
      const ExactResult exact = ExactOrder(problems[c], best_model[c]);
      switch (exact.status) {
        case ExactStatus::kImproved:
          orders[c] = exact.order;
          ++result.exact_proven;
          break;
        case ExactStatus::kProven:
          ++result.exact_proven;
          break;
        case ExactStatus::kTooLarge:
          ++result.exact_too_large;
          break;
        case ExactStatus::kStateLimit:
          ++result.exact_state_limit;
          break;
      }
    }
    result.optimal = nc == 1 && result.exact_proven == reorderable;
    if (absl::Status s = add("exact", std::move(orders), SecondsSince(start)); !s.ok()) return s;
  }
  std::size_t winner = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    if (candidates[i].first.peak < candidates[winner].first.peak) winner = i;
  }
  for (const auto& [row, orders] : candidates) result.rows.push_back(row);
  result.strategy = candidates[winner].first.name;
  result.peak = candidates[winner].first.peak;
  result.optimal = result.optimal && result.peak == candidates.back().first.peak;
  result.program = WithOrders(program, problems, candidates[winner].second);
  for (std::size_t c = 0; c < program.computations.size(); ++c) {
    if (result.program.computations[c].ops != program.computations[c].ops) {
      result.changed.push_back(static_cast<ComputationId>(c));
    }
  }
  return result;
}

}  // namespace memplan
