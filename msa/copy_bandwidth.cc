#include "msa/copy_bandwidth.h"

#include <algorithm>

namespace memplan {

CopyBandwidth::CopyBandwidth(const CostModel& cost, TimeStep time_steps, double share)
    : free_(static_cast<std::size_t>(std::max<TimeStep>(0, time_steps)), 0) {
  for (TimeStep t = 0; t < time_steps; ++t) free_[t] = share * cost.ElapsedBetween(t - 1, t + 1);
}

bool CopyBandwidth::Fits(TimeStep start, TimeStep done, double seconds) const {
  double available = 0;
  for (TimeStep t = std::max<TimeStep>(start + 1, 0); t < done && t < static_cast<TimeStep>(free_.size()); ++t) {
    available += free_[t];
    if (available >= seconds) return true;
  }
  return available >= seconds;
}

CopyBandwidth::Usage CopyBandwidth::Consume(TimeStep start, TimeStep done, double seconds) {
  Usage usage;
  for (TimeStep t = std::max<TimeStep>(start + 1, 0);
       seconds > 0 && t < done && t < static_cast<TimeStep>(free_.size()); ++t) {
    const double take = std::min(seconds, free_[t]);
    if (take <= 0) continue;
    free_[t] -= take;
    seconds -= take;
    usage.emplace_back(t, take);
  }
  return usage;
}

void CopyBandwidth::Release(const Usage& usage) {
  for (const auto& [t, seconds] : usage) free_[t] += seconds;
}

}  // namespace memplan
