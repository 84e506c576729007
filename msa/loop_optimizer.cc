#include "msa/loop_optimizer.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "msa/step_timeline.h"

namespace memplan {
namespace {

bool MayUseAlternate(const MsaBuffer& b) {
  return b.policy == AltPolicy::kAnywhere || b.policy == AltPolicy::kReadCopies;
}

// Where the accesses of one buffer fall in the loop.
struct LoopUse {
  std::int64_t iteration = 0;  // temporary, prefetch: the iteration
  TimeStep first = 0;          // first and last position accessed
  TimeStep last = 0;
  double saving_s = 0;         // saved per iteration
};

std::optional<LoopValueClass> Classify(const MsaBuffer& b, const DetectedLoop& loop, LoopUse& use) {
  const TimeStep s = loop.start, e = loop.end(), l = loop.period;
  auto in_loop = [&](TimeStep t) { return t >= s && t < e; };
  auto iteration = [&](TimeStep t) { return (t - s) / l; };
  std::vector<const BufferAccess*> inside;
  bool written = false, read_outside = false, accessed_before = false;
  TimeStep first_write = e;
  for (const BufferAccess& a : b.accesses) {
    if (!in_loop(a.time)) {
      accessed_before |= a.time < s;
      read_outside |= !a.write;
      continue;
    }
    inside.push_back(&a);
    if (a.write) {
      written = true;
      first_write = std::min(first_write, a.time);
    }
  }
  if (inside.empty()) return std::nullopt;
  use.first = std::numeric_limits<TimeStep>::max();
  use.last = -1;
  for (const BufferAccess* a : inside) {
    use.first = std::min(use.first, (a->time - s) % l);
    use.last = std::max(use.last, (a->time - s) % l);
    use.saving_s += a->saving_s;
  }
  if (written) {
    use.iteration = iteration(first_write);
    const bool one_iteration = !accessed_before && !read_outside && b.end < e &&
                               iteration(inside.front()->time) == use.iteration &&
                               iteration(inside.back()->time) == use.iteration;
    if (!one_iteration) return LoopValueClass::kLoopCarried;
    use.first = (inside.front()->time - s) % l;
    use.last = (inside.back()->time - s) % l;
    return LoopValueClass::kTemporary;
  }
  if (read_outside) return LoopValueClass::kOther;
  use.iteration = iteration(inside.front()->time);
  if (iteration(inside.back()->time) == use.iteration) {
    use.first = (inside.front()->time - s) % l;
    use.last = (inside.back()->time - s) % l;
    return LoopValueClass::kPrefetch;
  }
  // Pinned: the same positions in every iteration.
  const auto n = static_cast<std::int64_t>(inside.size());
  if (n % loop.iterations != 0) return LoopValueClass::kOther;
  const std::int64_t per = n / loop.iterations;
  for (std::int64_t k = 0; k < n; ++k) {
    const TimeStep t = inside[static_cast<std::size_t>(k)]->time;
    const TimeStep t0 = inside[static_cast<std::size_t>(k % per)]->time;
    if (iteration(t) != k / per || (t - s) % l != (t0 - s) % l) return LoopValueClass::kOther;
  }
  use.first = 0;
  use.last = l - 1;
  use.saving_s /= static_cast<double>(loop.iterations);
  return LoopValueClass::kPinned;
}

struct Candidate {
  BufferId buffer = kNoId;
  LoopValueClass cls = LoopValueClass::kOther;
  LoopUse use;
  Bytes size = 0;
  TimeStep issue = 0;  // prefetch: window index of the op its copy is issued after
};

// The steady-state model of one iteration: L positions, a window of the
// previous and the current iteration (indices 0..2L-1, -1: the step before).
class SteadyState {
 public:
  SteadyState(std::vector<double> position_s, const CostModel& cost, Bytes capacity)
      : l_(static_cast<TimeStep>(position_s.size())), cost_(cost), capacity_(capacity) {
    begin_.assign(2 * static_cast<std::size_t>(l_) + 1, 0);
    for (TimeStep w = 0; w < 2 * l_; ++w) {
      begin_[static_cast<std::size_t>(w) + 1] = begin_[static_cast<std::size_t>(w)] +
                                                position_s[static_cast<std::size_t>(w % l_)];
    }
    iteration_s_ = begin_[static_cast<std::size_t>(l_)];
  }

  // Whether `chosen` fits: sets each prefetch's issue and returns the most
  // bytes held at one position, or nullopt when the copies or bytes do not fit.
  std::optional<Bytes> Fit(std::vector<Candidate>& chosen) const {
    if (!ScheduleCopies(chosen)) return std::nullopt;
    // Bytes held per window index over three iterations, folded onto L positions.
    std::vector<Bytes> delta(3 * static_cast<std::size_t>(l_) + 2, 0);
    auto hold = [&](TimeStep from, TimeStep to, Bytes size) {  // indices shifted by L
      delta[static_cast<std::size_t>(from + l_)] += size;
      delta[static_cast<std::size_t>(to + l_) + 1] -= size;
    };
    for (const Candidate& c : chosen) {
      if (c.cls == LoopValueClass::kPrefetch) {
        hold(c.issue, l_ + c.use.last, c.size);
      } else {
        hold(l_ + c.use.first, l_ + c.use.last, c.size);
      }
    }
    std::vector<Bytes> held(static_cast<std::size_t>(l_), 0);
    Bytes running = 0;
    for (TimeStep w = 0; w < 3 * l_; ++w) {
      running += delta[static_cast<std::size_t>(w)];
      held[static_cast<std::size_t>(w % l_)] += running;
    }
    const Bytes most = *std::max_element(held.begin(), held.end());
    if (most > capacity_) return std::nullopt;
    return most;
  }

 private:
  // As-late-as-possible copies on one queue, each done before its read in
  // the current iteration; false when one would start before the window or
  // the copies span more than one iteration.
  bool ScheduleCopies(std::vector<Candidate>& chosen) const {
    std::vector<Candidate*> copies;
    for (Candidate& c : chosen) {
      if (c.cls == LoopValueClass::kPrefetch) copies.push_back(&c);
    }
    std::sort(copies.begin(), copies.end(), [](const Candidate* a, const Candidate* b) {
      return std::tie(b->use.first, b->buffer) < std::tie(a->use.first, a->buffer);
    });
    double next_start = std::numeric_limits<double>::infinity();
    double last_finish = 0;
    for (Candidate* c : copies) {
      const double deadline = begin_[static_cast<std::size_t>(l_ + c->use.first)];
      const double finish = std::min(deadline, next_start);
      const double start = finish - cost_.CopySeconds(c->size);
      if (start < 0) return false;
      if (c == copies.front()) last_finish = finish;
      if (last_finish - start > iteration_s_) return false;
      next_start = start;
      // The last op that ends by `start` (window index; -1: none).
      const auto ends = begin_.begin() + 1;
      c->issue = static_cast<TimeStep>(std::upper_bound(ends, begin_.end(), start) - ends) - 1;
    }
    return true;
  }

  TimeStep l_;
  const CostModel& cost_;
  Bytes capacity_;
  std::vector<double> begin_;  // begin_[w]: start of window index w; begin_[w + 1] its end
  double iteration_s_ = 0;
};

}  // namespace

const char* LoopValueClassName(LoopValueClass c) {
  switch (c) {
    case LoopValueClass::kTemporary: return "temporary";
    case LoopValueClass::kLoopCarried: return "loop-carried";
    case LoopValueClass::kPinned: return "pinned";
    case LoopValueClass::kPrefetch: return "prefetch";
    case LoopValueClass::kOther: return "other";
  }
  return "other";
}

void ClassifyLoopBuffers(const MsaProblem& problem, const DetectedLoop& loop, LoopPlan& plan) {
  plan.loop = loop;
  plan.classes.assign(problem.buffers.size(), std::nullopt);
  plan.counts.fill(0);
  for (std::size_t b = 0; b < problem.buffers.size(); ++b) {
    LoopUse use;
    plan.classes[b] = Classify(problem.buffers[b], loop, use);
    if (plan.classes[b]) ++plan.counts[static_cast<std::size_t>(*plan.classes[b])];
  }
}

LoopPlan PlanMemoryBoundLoop(const MsaProblem& problem, const ProgramAnalysis& analysis,
                             const CostModel& cost, const DetectedLoop& loop,
                             Bytes fast_memory_bytes) {
  LoopPlan plan;
  ClassifyLoopBuffers(problem, loop, plan);
  const std::size_t n = problem.buffers.size();
  plan.preferred_start.assign(n, kNoId);

  // Every plannable buffer's use; the candidates are iteration 1's.
  std::vector<Candidate> all;
  for (std::size_t b = 0; b < n; ++b) {
    const MsaBuffer& buffer = problem.buffers[b];
    const std::optional<LoopValueClass> cls = plan.classes[b];
    if (!cls || !MayUseAlternate(buffer) || buffer.size <= 0 || buffer.size > fast_memory_bytes) continue;
    if (*cls != LoopValueClass::kTemporary && *cls != LoopValueClass::kPrefetch &&
        *cls != LoopValueClass::kPinned) {
      continue;
    }
    Candidate c{static_cast<BufferId>(b), *cls, {}, buffer.size, 0};
    Classify(buffer, loop, c.use);
    all.push_back(c);
  }
  std::vector<Candidate> candidates;
  for (const Candidate& c : all) {
    if (c.cls == LoopValueClass::kPinned || c.use.iteration == 1) candidates.push_back(c);
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    const double pa = a.use.saving_s / static_cast<double>(a.size);
    const double pb = b.use.saving_s / static_cast<double>(b.size);
    return std::tie(pb, a.size, a.buffer) < std::tie(pa, b.size, b.buffer);
  });

  const StepTimes steps = TimeSteps(analysis, cost, [&](OpId op) { return cost.OpElapsedAllAlternate(op); });
  std::vector<double> position_s(static_cast<std::size_t>(loop.period));
  for (TimeStep p = 0; p < loop.period; ++p) {
    position_s[static_cast<std::size_t>(p)] = steps.seconds[static_cast<std::size_t>(loop.start + loop.period + p)];
  }
  const SteadyState model(std::move(position_s), cost, fast_memory_bytes);
  std::vector<Candidate> chosen;
  std::vector<std::size_t> rank;  // candidate index of each chosen one
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i].use.saving_s <= 0) continue;
    std::vector<Candidate> trial = chosen;
    trial.push_back(candidates[i]);
    if (std::optional<Bytes> held = model.Fit(trial)) {
      chosen = std::move(trial);
      rank.push_back(i);
      plan.steady_state_bytes = *held;
    }
  }

  // The same decision in every iteration for the prefetch buffers, matched
  // by (class, positions, size); chosen temporaries only keep their budget.
  using Key = std::tuple<LoopValueClass, TimeStep, TimeStep, Bytes>;
  auto key = [](const Candidate& c) { return Key{c.cls, c.use.first, c.use.last, c.size}; };
  std::map<Key, std::vector<std::pair<BufferId, std::size_t>>> representative;  // (buffer, chosen index or npos)
  constexpr std::size_t kNotChosen = static_cast<std::size_t>(-1);
  for (const Candidate& c : candidates) {
    if (c.cls != LoopValueClass::kPrefetch) continue;
    std::size_t index = kNotChosen;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      if (chosen[k].buffer == c.buffer) index = k;
    }
    representative[key(c)].emplace_back(c.buffer, index);
  }
  for (auto& [k, list] : representative) std::sort(list.begin(), list.end());
  std::vector<std::tuple<std::size_t, std::int64_t, BufferId>> order;  // (rank, iteration, buffer)
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    if (chosen[k].cls == LoopValueClass::kPinned) order.emplace_back(rank[k], 0, chosen[k].buffer);
  }
  std::map<std::pair<std::int64_t, Key>, std::size_t> seen;  // buffers matched per (iteration, key)
  for (const Candidate& c : all) {  // by BufferId
    if (c.cls != LoopValueClass::kPrefetch) continue;
    const auto it = representative.find(key(c));
    if (it == representative.end()) continue;
    const std::size_t nth = seen[{c.use.iteration, key(c)}]++;
    if (nth >= it->second.size() || it->second[nth].second == kNotChosen) continue;
    const Candidate& pattern = chosen[it->second[nth].second];
    order.emplace_back(rank[it->second[nth].second], c.use.iteration, c.buffer);
    const TimeStep step = loop.start + (c.use.iteration - 1) * loop.period + pattern.issue;
    plan.preferred_start[static_cast<std::size_t>(c.buffer)] = std::max<TimeStep>(step, -1);
  }
  std::sort(order.begin(), order.end());
  for (const auto& [r, iteration, buffer] : order) plan.order.push_back(buffer);
  return plan;
}

double SteadyStateIterationSeconds(std::span<const double> step_start_s, const DetectedLoop& loop) {
  const auto at = [&](std::int64_t iteration) {
    return step_start_s[static_cast<std::size_t>(loop.start + iteration * loop.period)];
  };
  return (at(loop.iterations - 1) - at(1)) / static_cast<double>(loop.iterations - 2);
}

}  // namespace memplan
