#include "packing/exact/parallel_decide.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "packing/exact/search_order.h"

namespace memplan::exact {
namespace {

// Each round's node limit is the last one plus 1/kNodeLimitGrowthDivisor.
// A run restarts its order's search from the root, but the memo of dead
// states makes that nearly a continuation (on MiniMalloc's H, the winning
// order's ninth run needed 4,841 nodes beyond the 160,020 of its first
// eight), so slow growth costs little, while each order before the winner
// may overshoot the winner's need by the growth factor: doubling spent
// 1.45 million nodes on H, where the winning order alone needs 163,412;
// growing by 1/4 spent 0.99 million (by 1/2: 1.10, by 1/8: 1.04).
constexpr std::int64_t kNodeLimitGrowthDivisor = 4;

// The node limit of run `index` of the sequence, for n buffers: 4n in the
// first round, then growing by a quarter per round (integer steps, the
// same on every machine), unlimited from round 160 on.
std::int64_t RunNodeLimit(std::size_t index, std::size_t orders, std::size_t n) {
  const std::size_t round = index / orders;
  if (round >= 160) return std::numeric_limits<std::int64_t>::max();
  std::int64_t limit = 4 * static_cast<std::int64_t>(std::max<std::size_t>(n, 16));
  for (std::size_t r = 0; r < round; ++r) {
    if (limit > std::numeric_limits<std::int64_t>::max() / 2) return std::numeric_limits<std::int64_t>::max();
    limit += std::max<std::int64_t>(limit / kNodeLimitGrowthDivisor, 1);
  }
  return limit;
}

// The run before `run` on the same memo (kNone: none): the static-rank run
// of its priority in the same round for a re-ranking run, else the
// re-ranking run of its priority in the round before. Orders come in pairs
// (static, re-ranking) per priority.
std::size_t RunPredecessor(std::size_t run, std::size_t orders) {
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  if (run % 2 == 1) return run - 1;
  return run >= orders ? run - orders + 1 : kNone;
}

// The sum of the first `count` run limits, saturating (unlimited runs are
// INT64_MAX).
std::int64_t SumOfLimits(const std::vector<std::int64_t>& limits, std::size_t count) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < count; ++k) sum = limits[k] > kMax - sum ? kMax : sum + limits[k];
  return sum;
}

}  // namespace

std::int64_t FirstRoundNodes(std::size_t buffers) {
  const std::size_t orders = 2 * kSearchOrderCount;  // each order twice (DecideCapacity)
  return static_cast<std::int64_t>(orders) * RunNodeLimit(0, orders, buffers);
}

Decision DecideCapacity(const Subproblem& problem, Bytes capacity, int threads,
                        const std::atomic<bool>* stop, const std::atomic<bool>* abandon,
                        std::atomic<std::int64_t>* node_counter, std::int64_t node_budget) {
  // Every static order twice (see the loop over `searches`).
  std::vector<SearchOrder> orders;
  for (SearchOrder& order : SearchOrders(problem)) {
    orders.push_back(order);
    orders.push_back(std::move(order));
  }
  const std::size_t n = problem.buffers.size();
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::mutex mutex;
  std::size_t next_run = 0;
  std::size_t conclusive_run = kNone;  // first run (in sequence order) with an answer
  std::vector<std::int64_t> limits;    // of the runs started, in sequence order
  bool budget_ended = false;           // no budget was left for the next run
  Decision decision;
  decision.outcome = RunOutcome::kStopped;
  // One abandon flag per worker: raised when a conclusive run precedes its own.
  const auto workers = static_cast<std::size_t>(std::max(1, threads));
  std::vector<std::unique_ptr<std::atomic<bool>>> later(workers);
  std::vector<std::size_t> running(workers, kNone);
  for (auto& flag : later) flag = std::make_unique<std::atomic<bool>>(false);

  const StopFlags caller{stop, abandon};
  // One search per order, reused by that order's next run so that its memo
  // of dead states carries over. Runs alternate between keeping the static
  // ranks in the parts of a decomposition and ranking each part again; the
  // two searches of one priority share their memo (CanonicalSearch), so
  // where they search the same tree the second costs little. Each run waits
  // for the previous one on its memo (RunPredecessor), which keeps the memo,
  // hence every run, deterministic.
  std::vector<std::unique_ptr<DeadStates>> memos;
  std::vector<std::unique_ptr<CanonicalSearch>> searches;
  for (std::size_t k = 0; k < orders.size(); ++k) {
    const std::size_t priority = k / 2;
    if (k % 2 == 0) memos.push_back(std::make_unique<DeadStates>());
    searches.push_back(std::make_unique<CanonicalSearch>(
        problem, capacity, orders[k], static_cast<int>(priority), k % 2 == 1, memos.back().get()));
  }
  std::vector<char> ended;
  std::condition_variable run_ended;
  const auto worker = [&](std::size_t me) {
    while (true) {
      std::size_t run;
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (conclusive_run != kNone || caller.Any() || budget_ended) return;
        const std::int64_t limit =
            std::min(RunNodeLimit(next_run, orders.size(), n), node_budget - SumOfLimits(limits, limits.size()));
        if (limit <= 0) {
          budget_ended = true;
          return;
        }
        limits.push_back(limit);
        run = next_run++;
        running[me] = run;
        ended.resize(next_run, 0);
        // A run touches its search and memo only once its predecessor on
        // them has ended, even when a later run has already concluded (this
        // run may still change the answer): with three or more workers the
        // two could otherwise run on one memo at once.
        run_ended.wait(lock, [&] {
          const std::size_t previous = RunPredecessor(run, orders.size());
          return previous == kNone || ended[previous] != 0 ||
                 (conclusive_run != kNone && conclusive_run < run);
        });
        if (conclusive_run != kNone && conclusive_run < run) {
          running[me] = kNone;
          ended[run] = 1;
          run_ended.notify_all();
          return;
        }
      }
      CanonicalSearch& search = *searches[run % orders.size()];
      std::int64_t limit;
      {
        std::lock_guard<std::mutex> lock(mutex);
        limit = limits[run];
      }
      const RunOutcome outcome = search.Run({stop, abandon, later[me].get()}, node_counter, limit);
      std::lock_guard<std::mutex> lock(mutex);
      running[me] = kNone;
      ended[run] = 1;
      run_ended.notify_all();
      if (outcome == RunOutcome::kStopped) return;
      if (outcome == RunOutcome::kNodeLimit) continue;
      if (run < conclusive_run) {  // kFound or kExhausted
        conclusive_run = run;
        decision.outcome = outcome;
        decision.offsets = outcome == RunOutcome::kFound ? search.offsets() : std::vector<Bytes>{};
        // Later runs cannot change the answer any more.
        for (std::size_t w = 0; w < workers; ++w) {
          if (running[w] != kNone && running[w] > run) later[w]->store(true);
        }
      }
      return;
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(worker, w);
  worker(0);
  for (std::thread& thread : pool) thread.join();
  // A later run may have concluded while an earlier one was still going when
  // the caller stopped everything: report the answer only if no earlier run
  // could still have changed it.
  if (conclusive_run == kNone) {
    decision.outcome = budget_ended && !caller.Any() ? RunOutcome::kNodeLimit : RunOutcome::kStopped;
    decision.budget_spent = SumOfLimits(limits, limits.size());
  } else {
    decision.budget_spent = SumOfLimits(limits, conclusive_run + 1);
  }
  return decision;
}

}  // namespace memplan::exact
