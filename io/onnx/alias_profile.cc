#include "io/onnx/alias_profile.h"

#include <algorithm>

namespace memplan {

void AliasStepProfile::Apply(const AliasInterval& interval, Bytes sign) {
  const std::int64_t n = static_cast<std::int64_t>(live_.size());
  const std::int64_t first = std::max<std::int64_t>(interval.first, 0);
  const std::int64_t last = std::min(interval.last, n - 1);
  for (std::int64_t t = first; t <= last; ++t) live_[static_cast<std::size_t>(t)] += sign * interval.bytes;
  if (sign > 0 && first <= last) peak_ = std::max(peak_, *std::max_element(live_.begin() + first, live_.begin() + last + 1));
}

void AliasStepProfile::RecomputePeak() {
  peak_ = live_.empty() ? 0 : *std::max_element(live_.begin(), live_.end());
}

bool AliasStepProfile::MergeUnlessPeakRises(const std::vector<AliasInterval>& before,
                                            const AliasInterval& after) {
  for (const AliasInterval& i : before) Apply(i, -1);
  const std::int64_t n = static_cast<std::int64_t>(live_.size());
  const std::int64_t first = std::max<std::int64_t>(after.first, 0);
  const std::int64_t last = std::min(after.last, n - 1);
  bool rises = false;
  for (std::int64_t t = first; t <= last && !rises; ++t) {
    rises = live_[static_cast<std::size_t>(t)] + after.bytes > peak_;
  }
  if (rises) {
    for (const AliasInterval& i : before) Apply(i, 1);
    return false;
  }
  Apply(after, 1);
  RecomputePeak();
  return true;
}

}  // namespace memplan
