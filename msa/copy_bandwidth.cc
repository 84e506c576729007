#include "msa/copy_bandwidth.h"

#include <algorithm>

namespace memplan {

CopyBandwidth::CopyBandwidth(const CostModel& cost, TimeStep time_steps, double share) {
  const auto n = static_cast<std::size_t>(std::max<TimeStep>(0, time_steps));
  free_.assign(n, 0);
  sums_.assign(n + 1, 0);
  for (TimeStep t = 0; t < time_steps; ++t) Add(t, share * cost.ElapsedBetween(t - 1, t + 1));
}

void CopyBandwidth::Add(TimeStep t, double seconds) {
  free_[t] += seconds;
  if (free_[t] > 0) {
    available_.insert(t);
  } else {
    available_.erase(t);
  }
  for (std::size_t i = static_cast<std::size_t>(t) + 1; i < sums_.size(); i += i & (~i + 1)) {
    sums_[i] += seconds;
  }
}

double CopyBandwidth::FreeBefore(TimeStep t) const {
  double sum = 0;
  for (auto i = static_cast<std::size_t>(std::clamp<TimeStep>(t, 0, static_cast<TimeStep>(free_.size()))); i > 0;
       i -= i & (~i + 1)) {
    sum += sums_[i];
  }
  return sum;
}

bool CopyBandwidth::Fits(TimeStep start, TimeStep done, double seconds) const {
  return done > start + 1 && FreeBefore(done) - FreeBefore(start + 1) >= seconds;
}

CopyBandwidth::Usage CopyBandwidth::Consume(TimeStep start, TimeStep done, double seconds) {
  Usage usage;
  auto it = available_.lower_bound(start + 1);
  while (seconds > 0 && it != available_.end() && *it < done) {
    const TimeStep t = *it++;
    const double take = std::min(seconds, free_[t]);
    seconds -= take;
    usage.emplace_back(t, take);
    Add(t, -take);
  }
  return usage;
}

void CopyBandwidth::Release(const Usage& usage) {
  for (const auto& [t, seconds] : usage) Add(t, seconds);
}

}  // namespace memplan
