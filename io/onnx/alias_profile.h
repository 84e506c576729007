// Live bytes per schedule position of the entry computation while the ONNX
// alias pass (io/onnx/alias.h) decides its views: each alias set chosen so
// far counts its extent over [first definition, last use] of its members
// (closed), transient sets only (external and constant storage is not the
// transient pool's). A view or tie merges sets; the pass takes it only when
// the merged set does not raise the peak of this profile, so the default
// import never holds more live bytes at its peak than `--no-alias`.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/units.h"

namespace memplan {

// A set's footprint in the profile: `bytes` live at every position of
// [first, last]. An interval with first > last counts nowhere.
struct AliasInterval {
  std::int64_t first = 0;
  std::int64_t last = -1;
  Bytes bytes = 0;
};

class AliasStepProfile {
 public:
  // `positions` schedule positions, nothing live.
  explicit AliasStepProfile(std::int64_t positions) : live_(static_cast<std::size_t>(positions), 0) {}

  // Counts `interval` (clamped to the positions). O(interval length).
  void Add(const AliasInterval& interval) { Apply(interval, 1); }

  // Replaces the intervals `before` (sets about to merge) by `after` (the
  // merged set; bytes 0 when it is not in the profile, e.g. constant)
  // if that leaves the peak where it was or lowers it; returns whether it
  // did. Positions outside `after` only lose bytes, so only `after` is
  // scanned. O(total length of the intervals) plus O(positions) when taken.
  bool MergeUnlessPeakRises(const std::vector<AliasInterval>& before, const AliasInterval& after);

  Bytes Peak() const { return peak_; }

 private:
  void Apply(const AliasInterval& interval, Bytes sign);
  void RecomputePeak();

  std::vector<Bytes> live_;
  Bytes peak_ = 0;
};

}  // namespace memplan
