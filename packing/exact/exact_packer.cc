#include "packing/exact/exact_packer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "packing/exact/canonical_search.h"
#include "packing/exact/descent_ladder.h"
#include "packing/exact/exact_problem.h"
#include "packing/exact/incumbent.h"
#include "packing/exact/parallel_decide.h"
#include "packing/exact/window_bound.h"
#include "packing/fixed_items.h"
#include "packing/pack_support.h"

namespace memplan {
namespace {

using exact::Decision;
using exact::DecideCapacity;
using exact::ReducedProblem;
using exact::RunOutcome;
using exact::Subproblem;

constexpr Bytes kUnbounded = std::numeric_limits<Bytes>::max() / 4;
using Clock = std::chrono::steady_clock;

// The smallest multiple of `granularity` above `capacity`: the lower bound a
// proof of infeasibility at `capacity` gives.
Bytes NextPeakAbove(Bytes capacity, Bytes granularity) {
  return (capacity / granularity + 1) * granularity;
}

Bytes SubPeak(const Subproblem& sub, const std::vector<Bytes>& offsets) {
  Bytes peak = 0;
  for (std::size_t b = 0; b < sub.buffers.size(); ++b) {
    peak = std::max(peak, offsets[b] + sub.buffers[b].size);
  }
  return peak;
}

// What is known about one subproblem; guarded by ExactRun::mutex.
struct SubState {
  const Subproblem* problem = nullptr;
  Bytes granularity = 1;
  Bytes lower_bound = 0;        // proven
  Bytes best_peak = kUnbounded;  // kUnbounded: no packing yet
  std::vector<Bytes> best_offsets;
  // The capacity of the decision that found best_offsets; nullopt for the
  // heuristic incumbent.
  std::optional<Bytes> best_from;
};

// Shared state of one ExactPack call: subproblem states, the stop flag, the
// node count and the progress reports.
class ExactRun {
 public:
  ExactRun(const PackOptions& options, int threads, std::int64_t node_budget)
      : options_(options), threads_(std::max(1, threads)), start_(Clock::now()),
        node_budget_left_(node_budget) {
    if (options.time_limit_seconds > 0) {
      deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(options.time_limit_seconds));
    }
  }

  std::vector<SubState>& subs() { return subs_; }
  std::mutex& mutex() { return mutex_; }
  std::atomic<bool>* stop() { return &stop_; }
  std::atomic<std::int64_t>* nodes() { return &nodes_; }
  int threads() const { return threads_; }
  bool stopped() const { return stop_.load(); }

  // The wall-clock deadline of options.time_limit_seconds (none: nullopt).
  const std::optional<Clock::time_point>& deadline() const { return deadline_; }

  // What is left of the node budget (kExactNoNodeBudget: none); Spend
  // takes a decision's spent nodes from it.
  std::int64_t node_budget_left() const { return node_budget_left_; }
  std::int64_t node_budget_spent() const { return node_budget_spent_; }
  bool node_budget_ended() const { return node_budget_ended_; }
  void Spend(const Decision& decision) {
    if (node_budget_left_ == kExactNoNodeBudget) return;
    node_budget_left_ -= decision.budget_spent;
    node_budget_spent_ += decision.budget_spent;
    if (decision.outcome == RunOutcome::kNodeLimit) node_budget_ended_ = true;
  }

  // Runs `jobs` on their own threads while this thread reports progress
  // about once a second and raises the stop flag at the deadline.
  void RunJobs(std::vector<std::function<void()>> jobs) {
    std::size_t finished = 0;
    std::mutex done_mutex;
    std::condition_variable done;
    std::vector<std::thread> pool;
    for (auto& job : jobs) {
      pool.emplace_back([&, job = std::move(job)] {
        job();
        std::lock_guard<std::mutex> lock(done_mutex);
        ++finished;
        done.notify_all();
      });
    }
    {
      std::unique_lock<std::mutex> lock(done_mutex);
      while (finished < pool.size()) {
        auto wake = next_report_;
        if (deadline_ && *deadline_ < wake) wake = *deadline_;
        done.wait_until(lock, wake);
        const auto now = Clock::now();
        if (deadline_ && now >= *deadline_) stop_.store(true);
        if (now >= next_report_) {
          lock.unlock();
          Report();
          lock.lock();
          next_report_ = now + std::chrono::seconds(1);
        }
      }
    }
    for (std::thread& thread : pool) thread.join();
  }

  // Global best peak (0 if a subproblem has none yet) and proven bound.
  std::pair<Bytes, Bytes> BestAndBound() {
    std::lock_guard<std::mutex> lock(mutex_);
    Bytes best = 0, bound = 0;
    for (const SubState& sub : subs_) {
      best = std::max(best, sub.best_peak);
      bound = std::max(bound, sub.lower_bound);
    }
    return {best >= kUnbounded ? 0 : best, bound};
  }

 private:
  void Report() {
    if (!options_.progress) return;
    const auto [best, bound] = BestAndBound();
    PackProgress progress;
    progress.best_peak = best;
    progress.lower_bound = bound;
    progress.gap = best > 0 && bound > 0 ? static_cast<double>(best - bound) / static_cast<double>(bound) : 0;
    progress.nodes = nodes_.load();
    progress.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    options_.progress(progress);
  }

  const PackOptions& options_;
  int threads_;
  Clock::time_point start_;
  Clock::time_point next_report_ = Clock::now() + std::chrono::seconds(1);
  std::optional<Clock::time_point> deadline_;
  std::vector<SubState> subs_;
  std::mutex mutex_;
  std::atomic<bool> stop_{false};
  std::atomic<std::int64_t> nodes_{0};
  std::int64_t node_budget_left_;
  std::int64_t node_budget_spent_ = 0;
  bool node_budget_ended_ = false;
};

// One decision on the run's threads, with progress reports.
Decision DecideReported(ExactRun& run, const Subproblem& sub, Bytes capacity) {
  Decision decision;
  run.RunJobs({[&] {
    decision = DecideCapacity(sub, capacity, run.threads(), run.stop(), nullptr, run.nodes(),
                              run.node_budget_left());
  }});
  run.Spend(decision);
  return decision;
}

// The first packings: the heuristics' (incumbent.h, split per subproblem;
// with the local search only when minimizing), or with fixed items (which
// the heuristics do not honour) a search with no capacity.
void SeedIncumbents(ExactRun& run, const std::vector<PackItem>& items, Bytes alignment,
                    bool minimizing) {
  const bool any_fixed = std::any_of(items.begin(), items.end(), [](const PackItem& item) {
    return item.fixed_offset().has_value();
  });
  std::vector<Bytes> heuristic;
  if (!any_fixed) heuristic = exact::ExactIncumbent(items, alignment, minimizing, run.deadline());
  for (SubState& state : run.subs()) {
    const Subproblem& sub = *state.problem;
    std::vector<Bytes> offsets(sub.buffers.size(), 0);
    if (!any_fixed) {
      for (std::size_t b = 0; b < offsets.size(); ++b) {
        offsets[b] = heuristic[static_cast<std::size_t>(sub.item_index[b])];
      }
    } else {
      const Decision first = DecideReported(run, sub, kUnbounded);
      if (first.outcome == RunOutcome::kExhausted) {
        state.lower_bound = kUnbounded;  // fixed buffers collide: nothing fits
        continue;
      }
      if (first.outcome != RunOutcome::kFound) continue;
      offsets = first.offsets;
    }
    state.best_peak = SubPeak(sub, offsets);
    state.best_offsets = std::move(offsets);
  }
}

// Capacity mode: every subproblem must fit `capacity`.
SearchStatus DecideAll(ExactRun& run, Bytes capacity) {
  for (SubState& state : run.subs()) {
    if (state.best_peak <= capacity) continue;
    if (state.lower_bound > capacity) return SearchStatus::kInfeasible;
    const Decision decision = DecideReported(run, *state.problem, capacity);
    if (decision.outcome == RunOutcome::kStopped || decision.outcome == RunOutcome::kNodeLimit) {
      return SearchStatus::kStopped;
    }
    if (decision.outcome == RunOutcome::kExhausted) {
      state.lower_bound = NextPeakAbove(capacity, state.granularity);
      return SearchStatus::kInfeasible;
    }
    state.best_peak = SubPeak(*state.problem, decision.offsets);
    state.best_offsets = decision.offsets;
    state.best_from = capacity;
  }
  return SearchStatus::kFeasible;
}

// Minimizes one subproblem's peak down to max(its bound, floor): one
// prober lowers the best peak by a DescentLadder of node-limited decisions,
// the other raises the bound by decisions at it (unlimited on two threads;
// on one thread the two take turns, the bound's decisions with a node
// limit that doubles each time one is cut). Returns true when that goal is
// proven reached.
bool MinimizeSub(ExactRun& run, SubState& state, Bytes floor) {
  const Subproblem& sub = *state.problem;
  std::atomic<bool> done{false};
  std::mutex& mutex = run.mutex();
  const auto reached = [&] { return state.best_peak <= std::max(state.lower_bound, floor); };
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (reached()) return true;
  }
  // Decides at `capacity` within `nodes` and records what it concluded;
  // returns the outcome.
  const auto decide = [&](Bytes capacity, std::int64_t nodes) {
    const Decision decision = DecideCapacity(sub, capacity, 1, run.stop(), &done, run.nodes(), nodes);
    std::lock_guard<std::mutex> lock(mutex);
    if (decision.outcome == RunOutcome::kFound) {
      const Bytes peak = SubPeak(sub, decision.offsets);
      if (peak < state.best_peak) {
        state.best_peak = peak;
        state.best_offsets = decision.offsets;
        state.best_from = capacity;
      }
    } else if (decision.outcome == RunOutcome::kExhausted) {
      state.lower_bound = std::max(state.lower_bound, NextPeakAbove(capacity, state.granularity));
    }
    if (reached()) done.store(true);
    return decision.outcome;
  };
  const auto live = [&] { return !done.load() && !run.stopped(); };
  const std::int64_t first_nodes = 2 * exact::FirstRoundNodes(sub.buffers.size());
  std::optional<exact::DescentLadder> ladder;
  // One decision of the ladder (its first with two first rounds of
  // restarts); false when there is nothing left for it to do.
  const auto upper_step = [&] {
    std::optional<exact::DescentLadder::Probe> probe;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!ladder) ladder.emplace(state.lower_bound, state.best_peak, state.granularity, first_nodes);
      ladder->Found(state.best_peak);
      ladder->RaiseBound(state.lower_bound);
      probe = ladder->Next();
    }
    if (!probe) return false;
    const RunOutcome outcome = decide(probe->capacity, probe->nodes);
    if (outcome == RunOutcome::kNodeLimit) ladder->Cut();
    return outcome != RunOutcome::kStopped;
  };
  const auto bound_capacity = [&] {
    std::lock_guard<std::mutex> lock(mutex);
    return state.lower_bound;
  };
  // When a first decision on the whole at the bound ends at its node limit
  // (the windows' budget), the bound prober decides windows (window_bound.h)
  // within that budget before going on with the whole: a proof on a short
  // window can be far cheaper (a tight 25-buffer input: 240k nodes on 8 of
  // its 12 sections against 4.4 million on the whole). Inputs whose bound
  // the whole's first decision settles pay nothing for them.
  const std::int64_t window_nodes = exact::WindowBoundBudget(sub.buffers.size());
  bool windows_done = false;
  const auto raise_by_windows = [&] {
    windows_done = true;
    const exact::WindowBound windows = exact::WindowLowerBound(
        sub, bound_capacity(), state.granularity, window_nodes, run.stop(), &done, run.nodes());
    std::lock_guard<std::mutex> lock(mutex);
    state.lower_bound = std::max(state.lower_bound, windows.bound);
    if (reached()) done.store(true);
  };
  if (run.threads() >= 2) {
    const auto upper = [&] {
      while (live() && upper_step()) {
      }
    };
    const auto lower = [&] {
      while (live()) {
        const RunOutcome outcome =
            decide(bound_capacity(), windows_done ? kExactNoNodeBudget : window_nodes);
        if (outcome == RunOutcome::kStopped) break;
        if (outcome == RunOutcome::kNodeLimit && live()) raise_by_windows();
      }
    };
    run.RunJobs({upper, lower});
  } else {
    run.RunJobs({[&] {
      std::int64_t lower_nodes = first_nodes;
      while (live()) {
        const RunOutcome outcome = decide(bound_capacity(), lower_nodes);
        if (outcome == RunOutcome::kStopped) break;
        if (outcome == RunOutcome::kNodeLimit && !windows_done && lower_nodes >= window_nodes && live()) {
          raise_by_windows();
        }
        if (outcome == RunOutcome::kNodeLimit && lower_nodes < kExactNoNodeBudget / 2) lower_nodes *= 2;
        if (live() && !upper_step()) break;
      }
    }});
  }
  std::lock_guard<std::mutex> lock(mutex);
  return reached();
}

// Makes a completed subproblem's packing the canonical one (see the header):
// the decision at the final capacity unless the packing came from it.
void Canonicalize(ExactRun& run, SubState& state, Bytes floor) {
  if (!state.best_from) return;  // the heuristic, optimal when it is final
  const Bytes capacity = std::max(state.best_peak, floor);
  if (*state.best_from == capacity) return;
  const Decision decision = DecideReported(run, *state.problem, capacity);
  if (decision.outcome != RunOutcome::kFound) return;  // stopped: keep the one in hand
  state.best_peak = SubPeak(*state.problem, decision.offsets);
  state.best_offsets = decision.offsets;
  state.best_from = capacity;
}

SearchStatus MinimizeAll(ExactRun& run) {
  // The max-live bound of the whole input: a subproblem at or below it is
  // good enough, whatever its own optimum.
  Bytes floor = 0;
  for (const SubState& state : run.subs()) floor = std::max(floor, state.lower_bound);
  bool complete = true;
  for (SubState& state : run.subs()) {
    if (run.stopped()) {
      complete = false;
      break;
    }
    if (state.best_peak >= kUnbounded) {
      complete = state.lower_bound >= kUnbounded ? complete : false;
      continue;
    }
    if (!MinimizeSub(run, state, floor)) {
      complete = false;
      continue;
    }
    Canonicalize(run, state, floor);
  }
  if (!complete) return SearchStatus::kStopped;
  return SearchStatus::kOptimal;
}

// Items of no subproblem (empty ones) at their fixed offset or 0; those of
// subproblems with no packing laid end to end above every fixed item (valid
// unless fixed items collide).
std::vector<Bytes> AssembleOffsets(ExactRun& run, const std::vector<PackItem>& items,
                                   Bytes alignment) {
  std::vector<Bytes> offsets = InitialOffsets(items);
  Bytes stack = 0;
  for (const PackItem& item : items) {
    if (item.fixed_offset()) {
      stack = std::max(stack, *item.fixed_offset() + std::max<Bytes>(item.size, 0));
    }
  }
  for (const SubState& state : run.subs()) {
    const Subproblem& sub = *state.problem;
    for (std::size_t b = 0; b < sub.buffers.size(); ++b) {
      const auto i = static_cast<std::size_t>(sub.item_index[b]);
      if (!state.best_offsets.empty()) {
        offsets[i] = state.best_offsets[b];
      } else if (items[i].fixed_offset()) {
        offsets[i] = *items[i].fixed_offset();
      } else {
        const Bytes a = EffectiveAlignment(items[i], alignment);
        offsets[i] = (stack + a - 1) / a * a;
        stack = offsets[i] + items[i].size;
      }
    }
  }
  return offsets;
}

}  // namespace

std::int64_t ExactFirstRoundNodes(std::int64_t buffers) {
  return exact::FirstRoundNodes(static_cast<std::size_t>(std::max<std::int64_t>(buffers, 0)));
}

PackResult ExactPack(const std::vector<PackItem>& items, const PackOptions& given, int threads,
                     std::int64_t node_budget) {
  PackOptions options = given;
  const bool decide_only = options.capacity && !options.minimize;
  const bool budgeted = decide_only && node_budget != kExactNoNodeBudget;
  const bool default_limit = !(options.time_limit_seconds > 0) && !budgeted;
  if (default_limit) options.time_limit_seconds = kExactDefaultTimeLimitSeconds;
  // The time limit counts from here: the reduction and the incumbent are
  // part of the search's time.
  ExactRun run(options, threads, budgeted ? node_budget : kExactNoNodeBudget);
  const ReducedProblem reduced = exact::ReduceProblem(items, given.alignment);
  for (const Subproblem& sub : reduced.subproblems) {
    SubState state;
    state.problem = &sub;
    state.granularity = exact::PeakGranularity(sub);
    state.lower_bound = exact::SubproblemLowerBound(sub);
    for (const exact::SearchBuffer& b : sub.buffers) {
      if (b.fixed_offset) state.lower_bound = std::max(state.lower_bound, *b.fixed_offset + b.size);
    }
    run.subs().push_back(std::move(state));
  }
  // The local search seeds only a search without a capacity: with one, the
  // decision comes first, and the local search's seconds would delay it
  // (D.1048576 at 1 MiB: 0.2 s to fit without it, over 2 s with it).
  SeedIncumbents(run, items, options.alignment, !options.capacity);
  // With a capacity, first a packing that fits it (what the plan needs;
  // minimizing alone may stop above it).
  SearchStatus status = SearchStatus::kFeasible;
  if (options.capacity) status = DecideAll(run, *options.capacity);
  // Then the lowest peak; after a proof that nothing fits too, so that the
  // failure reports what the input needs (the answer stays kInfeasible).
  if (!decide_only && status != SearchStatus::kStopped) {
    const SearchStatus minimized = MinimizeAll(run);
    if (status == SearchStatus::kFeasible) status = minimized;
  }
  PackResult result = MakePackResult(items, AssembleOffsets(run, items, options.alignment),
                                     std::string(PackingAlgorithmName(PackingAlgorithm::kExact)));
  const auto [best, bound] = run.BestAndBound();
  (void)best;
  result.proven_lower_bound = std::min(bound, kUnbounded);
  // The search treats items as live over their whole range, so its bound
  // holds for the items as given only when none has gaps.
  const bool any_gaps = AnyItemHasGaps(items);
  if (!any_gaps) {
    result.lower_bound = std::max(MaxLiveBytes(items), result.proven_lower_bound);
  } else if (status != SearchStatus::kInfeasible) {
    // A packing that uses the gaps (a heuristic's) may go below what the
    // search proved for the items without them: only max-live (gaps
    // honoured) is proven.
    result.lower_bound = MaxLiveBytes(items);
    result.proven_lower_bound = result.lower_bound;
    if (status == SearchStatus::kOptimal && result.peak > result.proven_lower_bound) {
      status = SearchStatus::kFeasible;
    }
  }
  if (status == SearchStatus::kFeasible && result.peak <= result.proven_lower_bound) {
    status = SearchStatus::kOptimal;
  }
  result.search_status = status;
  result.search_nodes = run.nodes()->load();
  result.search_time_limit_seconds = options.time_limit_seconds;
  result.search_default_time_limit = default_limit;
  result.search_node_budget_spent = run.node_budget_spent();
  result.search_node_budget_ended = run.node_budget_ended();
  return result;
}

}  // namespace memplan
