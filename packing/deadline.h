// A wall-clock deadline for packer runs (--time-limit): the long-running
// members (best fit, in-order, skyline, the local search's re-packs) poll it
// as they go and give up once it has passed, so a time limit caps auto's
// wall time instead of only keeping members from starting.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>

#include "ir/units.h"

namespace memplan {

using PackClock = std::chrono::steady_clock;

// When a run's result becomes moot before it finishes: auto stops a member
// once a member of a better tie-break rank has reached the lower bound
// (packing/portfolio.h), since its result could no longer win. Read where
// the deadline is polled. Default: never.
// A run whose own packing has risen above the bound is moot too, whatever
// its rank, once any member has reached the bound: its peak can only grow.
struct MootWhen {
  const std::atomic<int>* best_rank = nullptr;  // the best rank at the bound so far
  int rank = 0;                                 // this run's rank
  // The lower bound (bytes); -1: a run is moot by rank alone.
  Bytes bound = -1;
  // Where the run's highest top so far is written at each poll that gives
  // it (DeadlinePoll::Passed(top)); null: not kept.
  Bytes* top = nullptr;
  bool Now() const {
    return best_rank != nullptr && best_rank->load(std::memory_order_relaxed) < rank;
  }
  // `top` (bytes) is above the bound and some member has reached it.
  bool RoseAbove(Bytes top_so_far) const {
    return bound >= 0 && top_so_far > bound && best_rank != nullptr &&
           best_rank->load(std::memory_order_relaxed) != std::numeric_limits<int>::max();
  }
};

// A wall-clock deadline (none: no deadline; read as an optional time
// point) and when the run is moot. Both stop a polling packer early.
struct PackDeadline {
  PackDeadline() = default;
  PackDeadline(std::nullopt_t) {}  // NOLINT: read as an optional
  PackDeadline(std::optional<PackClock::time_point> at) : at(at) {}  // NOLINT: likewise
  PackDeadline(std::optional<PackClock::time_point> at, MootWhen moot) : at(at), moot(moot) {}

  explicit operator bool() const { return at.has_value(); }
  const PackClock::time_point& operator*() const { return *at; }

  std::optional<PackClock::time_point> at;
  MootWhen moot;
};

// Polls a deadline cheaply: reads the clock (and whether the run is moot)
// once every kEvery calls of Passed() (a step of every polling packer costs
// hundreds of ns, a clock read about 20 ns), and remembers once it has
// passed.
class DeadlinePoll {
 public:
  explicit DeadlinePoll(const PackDeadline& deadline) : deadline_(deadline) {}

  // True once the deadline has passed or the run is moot (false forever
  // without either).
  bool Passed() {
    if (passed_ || (!deadline_.at && deadline_.moot.best_rank == nullptr)) return passed_;
    if (++calls_ % kEvery != 0) return false;
    passed_ = deadline_.moot.Now() || (deadline_.at && PackClock::now() >= *deadline_.at);
    return passed_;
  }
  // Passed() for a packer whose highest top so far is `top` (bytes): also
  // true once that is above the bound of MootWhen and a member reached it.
  // Writes `top` to MootWhen::top when that is set.
  bool Passed(Bytes top) {
    if (deadline_.moot.top != nullptr) *deadline_.moot.top = top;
    if (passed_ || (!deadline_.at && deadline_.moot.best_rank == nullptr)) return passed_;
    if (++calls_ % kEvery != 0) return false;
    passed_ = deadline_.moot.Now() || deadline_.moot.RoseAbove(top) ||
              (deadline_.at && PackClock::now() >= *deadline_.at);
    return passed_;
  }

 private:
  static constexpr std::uint32_t kEvery = 16;
  PackDeadline deadline_;
  std::uint32_t calls_ = 0;
  bool passed_ = false;
};

// The deadline `seconds` from now; none for seconds <= 0.
inline PackDeadline DeadlineAfter(double seconds) {
  if (!(seconds > 0)) return std::nullopt;
  return std::optional<PackClock::time_point>(
      PackClock::now() +
      std::chrono::duration_cast<PackClock::duration>(std::chrono::duration<double>(seconds)));
}

}  // namespace memplan
