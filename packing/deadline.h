// A wall-clock deadline for packer runs (--time-limit): the long-running
// members (best fit, in-order, skyline, the local search's re-packs) poll it
// as they go and give up once it has passed, so a time limit caps auto's
// wall time instead of only keeping members from starting.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace memplan {

using PackClock = std::chrono::steady_clock;
// No value: no deadline.
using PackDeadline = std::optional<PackClock::time_point>;

// Polls a deadline cheaply: reads the clock once every kEvery calls of
// Passed() (a step of every polling packer costs hundreds of ns, a clock
// read about 20 ns), and remembers once it has passed.
class DeadlinePoll {
 public:
  explicit DeadlinePoll(const PackDeadline& deadline) : deadline_(deadline) {}

  // True once the deadline has passed (false forever without one).
  bool Passed() {
    if (!deadline_ || passed_) return passed_;
    if (++calls_ % kEvery != 0) return false;
    passed_ = PackClock::now() >= *deadline_;
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
  return PackClock::now() + std::chrono::duration_cast<PackClock::duration>(
                                std::chrono::duration<double>(seconds));
}

}  // namespace memplan
