#include "msa/prefetch_picker.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace memplan {
namespace {

// First index i in [lo, hi) with pred(i) false, for a predicate that is true
// on a prefix of the range.
template <typename Pred>
std::int64_t PartitionPoint(std::int64_t lo, std::int64_t hi, Pred pred) {
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (pred(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

LocalTimeline::LocalTimeline(std::vector<ComputationId> owner, ComputationId entry)
    : owner_(std::move(owner)) {
  ComputationId max_id = 0;
  for (ComputationId c : owner_) max_id = std::max(max_id, c);
  steps_.resize(static_cast<std::size_t>(max_id) + 1);
  for (TimeStep t = 0; t < size(); ++t) steps_[owner_[t]].push_back(t);
  if (size() > 0 && owner_[0] == entry) {
    first_starts_.push_back(-1);
    first_starts_.insert(first_starts_.end(), steps_[owner_[0]].begin(), steps_[owner_[0]].end());
  }
}

const std::vector<TimeStep>& LocalTimeline::StartsOfOwner(TimeStep t) const {
  return !first_starts_.empty() && owner_[t] == owner_[0] ? first_starts_ : steps_[owner_[t]];
}

TimeStep LocalTimeline::OwnStepAtOrBefore(TimeStep t, TimeStep bound) const {
  const std::vector<TimeStep>& steps = StepsOfOwner(t);
  auto it = std::upper_bound(steps.begin(), steps.end(), bound);
  return it == steps.begin() ? kNoId : *std::prev(it);
}

// --- InstructionCountPicker -------------------------------------------------

InstructionCountPicker::InstructionCountPicker(const LocalTimeline& timeline,
                                               std::int64_t min_overlap,
                                               std::int64_t max_overlap)
    : PrefetchIntervalPicker(timeline), min_overlap_(min_overlap), max_overlap_(max_overlap) {}

bool InstructionCountPicker::AllowsNoCopy(Bytes, TimeStep from, TimeStep to) const {
  return to - from <= max_overlap_;
}

TimeStep InstructionCountPicker::EvictionDone(Bytes, TimeStep start, TimeStep latest_done) const {
  return timeline_.OwnStepAtOrBefore(start, std::min(start + min_overlap_, latest_done));
}

TimeStep InstructionCountPicker::LatestStart(const PrefetchRequest& request) const {
  const std::vector<TimeStep>& starts = timeline_.StartsOfOwner(request.done);
  auto it = std::upper_bound(starts.begin(), starts.end(), request.done - min_overlap_ - 1);
  return it == starts.begin() ? request.earliest_start - 1 : *std::prev(it);
}

TimeStep InstructionCountPicker::PreferredStart(Bytes, TimeStep earliest, TimeStep,
                                                TimeStep done) const {
  return std::max(earliest, done - max_overlap_);
}

void InstructionCountPicker::Begin(const PrefetchRequest& request) {
  steps_ = &timeline_.StartsOfOwner(request.done);
  const TimeStep first = std::max(request.earliest_start, request.done - max_overlap_);
  next_ = static_cast<std::size_t>(
      std::lower_bound(steps_->begin(), steps_->end(), first) - steps_->begin());
  last_ = request.done - min_overlap_ - 1;
}

bool InstructionCountPicker::Done() const {
  return next_ >= steps_->size() || (*steps_)[next_] > last_;
}

TimeStep InstructionCountPicker::Next() { return (*steps_)[next_++]; }

// --- CostAnalysisPicker -----------------------------------------------------

CostAnalysisPicker::CostAnalysisPicker(const LocalTimeline& timeline, const CostModel& cost,
                                       double min_ratio, double preferred_ratio,
                                       double max_ratio, Bytes fast_memory_bytes)
    : PrefetchIntervalPicker(timeline),
      cost_(cost),
      min_ratio_(min_ratio),
      preferred_ratio_(preferred_ratio),
      max_ratio_(max_ratio),
      fast_memory_bytes_(fast_memory_bytes) {}

double CostAnalysisPicker::MaxResidency(Bytes bytes) const {
  return max_ratio_ *
         std::max(retry_multiplier_ * cost_.CopySeconds(bytes), cost_.CopySeconds(fast_memory_bytes_));
}

std::size_t CostAnalysisPicker::LowerIndex(const std::vector<TimeStep>& steps, TimeStep first) {
  return static_cast<std::size_t>(std::lower_bound(steps.begin(), steps.end(), first) -
                                  steps.begin());
}

bool CostAnalysisPicker::AllowsNoCopy(Bytes bytes, TimeStep from, TimeStep to) const {
  return cost_.ElapsedBetween(from, to) < MaxResidency(bytes);
}

TimeStep CostAnalysisPicker::EvictionDone(Bytes bytes, TimeStep start, TimeStep latest_done) const {
  // Overlap grows with the done time: find the first own step after `start`
  // whose overlap reaches the minimum.
  const std::vector<TimeStep>& steps = timeline_.StepsOfOwner(start);
  const double needed = min_ratio_ * cost_.CopySeconds(bytes);
  const auto lo = static_cast<std::int64_t>(LowerIndex(steps, start + 1));
  const auto hi = static_cast<std::int64_t>(LowerIndex(steps, latest_done + 1));
  const std::int64_t i = PartitionPoint(
      lo, hi, [&](std::int64_t k) { return cost_.ElapsedBetween(start, steps[k]) < needed; });
  return i < hi ? steps[i] : latest_done;
}

TimeStep CostAnalysisPicker::LatestStart(const PrefetchRequest& request) const {
  // Overlap shrinks as the start moves later: the latest start is the last
  // own step whose overlap (plus the use's own saving) still reaches the
  // minimum.
  const std::vector<TimeStep>& steps = timeline_.StartsOfOwner(request.done);
  const double needed = min_ratio_ * cost_.CopySeconds(request.bytes);
  const auto lo = static_cast<std::int64_t>(LowerIndex(steps, request.earliest_start));
  const auto hi = static_cast<std::int64_t>(LowerIndex(steps, request.done));
  const std::int64_t i = PartitionPoint(lo, hi, [&](std::int64_t k) {
    return cost_.ElapsedBetween(steps[k], request.done) + request.use_saving_s >= needed;
  });
  return i > lo ? steps[i - 1] : request.earliest_start - 1;
}

TimeStep CostAnalysisPicker::PreferredStart(Bytes bytes, TimeStep earliest, TimeStep latest,
                                            TimeStep done) const {
  const TimeStep anchor = std::min(done, timeline_.size() - 1);
  const std::vector<TimeStep>& steps = timeline_.StartsOfOwner(anchor);
  const auto lo = static_cast<std::int64_t>(LowerIndex(steps, earliest));
  const auto hi = static_cast<std::int64_t>(LowerIndex(steps, latest + 1));
  if (lo >= hi) return earliest;
  const double preferred = preferred_ratio_ * cost_.CopySeconds(bytes);
  auto overlap = [&](std::int64_t k) { return cost_.ElapsedBetween(steps[k], done); };
  // Overlap is non-increasing in k: [lo, split) overlaps at least `preferred`.
  const std::int64_t split = PartitionPoint(lo, hi, [&](std::int64_t k) { return overlap(k) >= preferred; });
  std::int64_t best = split < hi ? split : hi - 1;
  if (split > lo) {
    const double above = overlap(split - 1) - preferred;
    if (split == hi || above <= preferred - overlap(split)) {
      // The earliest step with that same overlap wins ties, as a scan would.
      const double value = overlap(split - 1);
      best = PartitionPoint(lo, split, [&](std::int64_t k) { return overlap(k) > value; });
    }
  }
  return steps[best];
}

void CostAnalysisPicker::Begin(const PrefetchRequest& request) {
  steps_ = &timeline_.StartsOfOwner(request.done);
  const std::vector<TimeStep>& steps = *steps_;
  const TimeStep latest = LatestStart(request);
  const auto lo = static_cast<std::int64_t>(LowerIndex(steps, request.earliest_start));
  latest_index_ = static_cast<std::int64_t>(LowerIndex(steps, latest + 1)) - 1;
  if (latest_index_ < lo) {
    earliest_index_ = lo;
    later_ = latest_index_ + 1;
    earlier_ = earliest_index_ - 1;
    return;
  }
  // The earliest start keeps the residency below the limit, but the latest
  // start is always allowed.
  const double limit = MaxResidency(request.bytes);
  earliest_index_ = PartitionPoint(lo, latest_index_, [&](std::int64_t k) {
    return cost_.ElapsedBetween(steps[k], request.done) > limit;
  });
  const TimeStep preferred =
      PreferredStart(request.bytes, steps[earliest_index_], steps[latest_index_], request.done);
  const auto start = static_cast<std::int64_t>(LowerIndex(steps, preferred));
  earlier_ = start;
  later_ = start + 1;
  take_later_ = false;
}

bool CostAnalysisPicker::Done() const {
  return later_ > latest_index_ && earlier_ < earliest_index_;
}

TimeStep CostAnalysisPicker::Next() {
  if (take_later_) {
    const TimeStep t = (*steps_)[later_++];
    if (earlier_ >= earliest_index_) take_later_ = false;
    return t;
  }
  const TimeStep t = (*steps_)[earlier_--];
  if (later_ <= latest_index_) take_later_ = true;
  return t;
}

void CostAnalysisPicker::SetRetry(int retry) { retry_multiplier_ = std::ldexp(1.0, retry); }

}  // namespace memplan
