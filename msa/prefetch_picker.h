// Prefetch interval pickers (XLA MSA's PrefetchIntervalPicker, msa.md §4):
// they answer the timing questions of memory space assignment — may a
// buffer stay in alternate memory without a copy across a range, when should
// an eviction finish, and in which order should prefetch start times be
// tried for a use.
//
// Copy timing convention (msa/assignment.h): a copy with start s and done d
// is issued after the op at time s and completes before the op at time d, so
// it overlaps the ops strictly between s and d. A start of -1 is issued
// before the first op (LocalTimeline::StartsOfOwner).
//
// Every start or done time a picker proposes is a time step of the
// computation that owns the use (its "own steps", LocalTimeline below): a
// copy issued inside a called computation's span would run in the wrong
// place. The reference compares loop-nest levels instead; own steps are
// stricter (two sibling computations at the same level never mix).
//
// Two pickers:
//  * InstructionCountPicker(min, max): overlap is counted in time steps. No
//    copy is needed across [from, to] if to - from <= max; an eviction started
//    at s finishes at s + min; prefetch starts for a done at d are tried in
//    increasing order over [max(earliest, d - max), d - min - 1].
//    Example (min 2, max 10, every step owned): earliest 0, done 20 ->
//    candidates 10, 11, ..., 17.
//  * CostAnalysisPicker(min_ratio, preferred_ratio, max_ratio): overlap is
//    measured in seconds of overlapped compute (CostModel::ElapsedBetween)
//    against the copy time C = CostModel::CopySeconds(bytes). The latest start
//    overlaps at least min_ratio x C (counting the seconds the use itself
//    saves); the earliest start overlaps at most M = max_ratio x max(2^retry x
//    C, copy time of a buffer as large as the whole fast memory); iteration
//    begins at the start whose overlap is closest to preferred_ratio x C and
//    then alternates one step later, one step earlier. No copy is needed when
//    the overlapped time is below M; an eviction finishes at the first step
//    whose overlap reaches min_ratio x C.
//    Example: five 1 s steps t0..t4 with a 1 s copy, ratios 1 / 2 / 10 and a
//    done at t4: latest start t2 (1 s between), preferred start t1 (2 s),
//    candidates t1, t2, t0.
// Overlap is monotone in the start time, so every search above is a binary
// search over own steps: O(log T) per question.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/units.h"
#include "msa/cost_model.h"

namespace memplan {

// The time steps owned by each computation: steps where one of its own ops
// runs (not the spans of the computations it calls).
class LocalTimeline {
 public:
  LocalTimeline() = default;
  // `owner[t]` = the computation whose ops run at time step t; `entry`: the
  // entry computation (StartsOfOwner offers -1 only when it runs step 0).
  explicit LocalTimeline(std::vector<ComputationId> owner, ComputationId entry = kNoId);

  // Owner of step t (t must lie in [0, size())).
  ComputationId owner(TimeStep t) const { return owner_[t]; }
  TimeStep size() const { return static_cast<TimeStep>(owner_.size()); }
  // The sorted own steps of the computation owning step t.
  const std::vector<TimeStep>& StepsOfOwner(TimeStep t) const { return steps_[owner_[t]]; }
  // The largest own step of t's computation that is <= bound (kNoId if none).
  TimeStep OwnStepAtOrBefore(TimeStep t, TimeStep bound) const;
  // The prefetch starts a picker may propose for a copy done at step t: the
  // own steps of t's computation, preceded by -1 ("issued before the op at
  // time 0") when that computation is the entry and runs step 0 (not a
  // callee or an initializer running first). A request whose
  // earliest_start is >= 0 never reaches -1; the walker allows -1 only for
  // entry parameters, whose data exists before the first op.
  // Example: owners {main, body, main}, entry main -> StartsOfOwner(2) =
  // {-1, 0, 2}, StartsOfOwner(1) = {1}.
  const std::vector<TimeStep>& StartsOfOwner(TimeStep t) const;

 private:
  std::vector<ComputationId> owner_;
  std::vector<std::vector<TimeStep>> steps_;  // per computation id
  std::vector<TimeStep> first_starts_;         // -1, then the entry's own steps (if it owns 0)
};

// A use that a prefetch serves.
struct PrefetchRequest {
  Bytes bytes = 0;
  TimeStep earliest_start = 0;  // no start before this step
  TimeStep done = 0;            // the copy completes before the op at this step
  double use_saving_s = 0;      // seconds the use saves by reading alternate memory
};

class PrefetchIntervalPicker {
 public:
  virtual ~PrefetchIntervalPicker() = default;

  // True if `bytes` may stay in alternate memory without a copy from step
  // `from` through step `to` (from <= to).
  virtual bool AllowsNoCopy(Bytes bytes, TimeStep from, TimeStep to) const = 0;

  // Preferred done time of an eviction started at `start`, at most
  // `latest_done`; an own step of start's computation (latest_done is one).
  virtual TimeStep EvictionDone(Bytes bytes, TimeStep start, TimeStep latest_done) const = 0;

  // The latest start allowed for `request` (an own step, or a value below
  // request.earliest_start when none is).
  virtual TimeStep LatestStart(const PrefetchRequest& request) const = 0;

  // The start in [earliest, latest] (own steps of done's computation) that
  // the picker would try first for a copy done at `done`; `earliest` when no
  // own step lies in the range.
  virtual TimeStep PreferredStart(Bytes bytes, TimeStep earliest, TimeStep latest,
                                  TimeStep done) const = 0;

  // Starts iterating the candidate start times for `request`.
  virtual void Begin(const PrefetchRequest& request) = 0;
  virtual bool Done() const = 0;
  // The next candidate (only when !Done()).
  virtual TimeStep Next() = 0;

  // Retries relax the limits (cost picker: the no-copy and earliest-start
  // limit doubles per retry). Retry 0 is the first attempt.
  virtual void SetRetry(int retry) = 0;

 protected:
  explicit PrefetchIntervalPicker(const LocalTimeline& timeline) : timeline_(timeline) {}

  const LocalTimeline& timeline_;
};

class InstructionCountPicker final : public PrefetchIntervalPicker {
 public:
  InstructionCountPicker(const LocalTimeline& timeline, std::int64_t min_overlap,
                         std::int64_t max_overlap);

  bool AllowsNoCopy(Bytes bytes, TimeStep from, TimeStep to) const override;
  TimeStep EvictionDone(Bytes bytes, TimeStep start, TimeStep latest_done) const override;
  TimeStep LatestStart(const PrefetchRequest& request) const override;
  TimeStep PreferredStart(Bytes bytes, TimeStep earliest, TimeStep latest,
                          TimeStep done) const override;
  void Begin(const PrefetchRequest& request) override;
  bool Done() const override;
  TimeStep Next() override;
  void SetRetry(int) override {}

 private:
  std::int64_t min_overlap_;
  std::int64_t max_overlap_;
  const std::vector<TimeStep>* steps_ = nullptr;  // own steps of the current done
  std::size_t next_ = 0;                           // index into *steps_
  TimeStep last_ = 0;                              // last candidate (inclusive)
};

class CostAnalysisPicker final : public PrefetchIntervalPicker {
 public:
  // `fast_memory_bytes` sizes the residency limit (see the file comment).
  CostAnalysisPicker(const LocalTimeline& timeline, const CostModel& cost, double min_ratio,
                     double preferred_ratio, double max_ratio, Bytes fast_memory_bytes);

  bool AllowsNoCopy(Bytes bytes, TimeStep from, TimeStep to) const override;
  TimeStep EvictionDone(Bytes bytes, TimeStep start, TimeStep latest_done) const override;
  TimeStep LatestStart(const PrefetchRequest& request) const override;
  TimeStep PreferredStart(Bytes bytes, TimeStep earliest, TimeStep latest,
                          TimeStep done) const override;
  void Begin(const PrefetchRequest& request) override;
  bool Done() const override;
  TimeStep Next() override;
  void SetRetry(int retry) override;

 private:
  // Seconds a buffer of `bytes` may stay resident without a copy.
  double MaxResidency(Bytes bytes) const;
  // Index of the first entry of `steps` that is >= first.
  static std::size_t LowerIndex(const std::vector<TimeStep>& steps, TimeStep first);

  const CostModel& cost_;
  double min_ratio_;
  double preferred_ratio_;
  double max_ratio_;
  Bytes fast_memory_bytes_;
  double retry_multiplier_ = 1;

  // Iteration state: indices into *steps_, alternating from the preferred one.
  const std::vector<TimeStep>* steps_ = nullptr;
  std::int64_t earliest_index_ = 0;
  std::int64_t latest_index_ = -1;
  std::int64_t later_ = 0;    // next candidate on the later side
  std::int64_t earlier_ = -1; // next candidate on the earlier side
  bool take_later_ = false;
};

}  // namespace memplan
