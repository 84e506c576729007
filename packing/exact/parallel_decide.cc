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

// The node limit of run `index` of the sequence, for n buffers.
std::int64_t RunNodeLimit(std::size_t index, std::size_t orders, std::size_t n) {
  const std::size_t round = index / orders;
  const std::int64_t base = 4 * static_cast<std::int64_t>(std::max<std::size_t>(n, 16));
  if (round >= 40) return std::numeric_limits<std::int64_t>::max();
  const std::int64_t limit = base << round;
  return limit <= 0 ? std::numeric_limits<std::int64_t>::max() : limit;
}

}  // namespace

Decision DecideCapacity(const Subproblem& problem, Bytes capacity, int threads,
                        const std::atomic<bool>* stop, const std::atomic<bool>* abandon,
                        std::atomic<std::int64_t>* node_counter) {
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
  Decision decision;
  decision.outcome = SearchOutcome::kStopped;
  // One abandon flag per worker: raised when a conclusive run precedes its own.
  const auto workers = static_cast<std::size_t>(std::max(1, threads));
  std::vector<std::unique_ptr<std::atomic<bool>>> later(workers);
  std::vector<std::size_t> running(workers, kNone);
  for (auto& flag : later) flag = std::make_unique<std::atomic<bool>>(false);

  const StopFlags caller{stop, abandon};
  // One search per order, reused by that order's next run so that its memo
  // of dead states carries over; run r waits for run r - orders (the same
  // order) to end, which keeps the memo, hence every run, deterministic.
  std::vector<std::unique_ptr<CanonicalSearch>> searches;
  // Runs alternate between keeping the static ranks in the parts of a
  // decomposition and ranking each part again.
  for (std::size_t k = 0; k < orders.size(); ++k) {
    const std::size_t priority = k / 2;
    searches.push_back(std::make_unique<CanonicalSearch>(
        problem, capacity, orders[k], static_cast<int>(priority), k % 2 == 1));
  }
  std::vector<char> ended;
  std::condition_variable run_ended;
  const auto worker = [&](std::size_t me) {
    while (true) {
      std::size_t run;
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (conclusive_run != kNone || caller.Any()) return;
        run = next_run++;
        running[me] = run;
        ended.resize(next_run, 0);
        run_ended.wait(lock, [&] {
          return run < orders.size() || ended[run - orders.size()] != 0 || conclusive_run != kNone;
        });
        if (conclusive_run != kNone && conclusive_run < run) {
          running[me] = kNone;
          ended[run] = 1;
          run_ended.notify_all();
          return;
        }
      }
      CanonicalSearch& search = *searches[run % orders.size()];
      const SearchOutcome outcome = search.Run({stop, abandon, later[me].get()}, node_counter,
                                               RunNodeLimit(run, orders.size(), n));
      std::lock_guard<std::mutex> lock(mutex);
      running[me] = kNone;
      ended[run] = 1;
      run_ended.notify_all();
      if (outcome == SearchOutcome::kStopped) return;
      if (outcome == SearchOutcome::kNodeLimit) continue;
      if (run < conclusive_run) {  // kFound or kExhausted
        conclusive_run = run;
        decision.outcome = outcome;
        decision.offsets = outcome == SearchOutcome::kFound ? search.offsets() : std::vector<Bytes>{};
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
  if (conclusive_run == kNone) decision.outcome = SearchOutcome::kStopped;
  return decision;
}

}  // namespace memplan::exact
