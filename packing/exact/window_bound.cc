#include "packing/exact/window_bound.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "packing/exact/alignment_waste.h"
#include "packing/exact/canonical_search.h"
#include "packing/exact/parallel_decide.h"

namespace memplan::exact {
namespace {

// The total spans of buffers over sections above which the alignment-aware
// heat is not computed (the per-section lists would cost too much;
// SubproblemLowerBound's limit).
constexpr std::size_t kHeatSpanLimit = std::size_t{1} << 24;

// The smallest multiple of `granularity` above `capacity`.
Bytes NextMultipleAbove(Bytes capacity, Bytes granularity) {
  return (capacity / granularity + 1) * granularity;
}

// Per section: the bytes live there, or with alignments the lowest stack
// top of its buffers (MinStackTop), whichever is higher.
std::vector<Bytes> SectionHeat(const Subproblem& problem) {
  const auto sections = static_cast<std::size_t>(problem.sections);
  std::vector<Bytes> delta(sections + 1, 0);
  std::size_t spans = 0;
  bool aligned = false;
  for (const SearchBuffer& b : problem.buffers) {
    delta[static_cast<std::size_t>(b.first_section)] += b.size;
    delta[static_cast<std::size_t>(b.last_section) + 1] -= b.size;
    spans += static_cast<std::size_t>(b.last_section - b.first_section + 1);
    aligned = aligned || b.alignment > 1;
  }
  std::vector<Bytes> heat(sections, 0);
  Bytes live = 0;
  for (std::size_t k = 0; k < sections; ++k) {
    live += delta[k];
    heat[k] = live;
  }
  if (!aligned || spans > kHeatSpanLimit) return heat;
  std::vector<std::vector<StackBuffer>> stacks(sections);
  for (const SearchBuffer& b : problem.buffers) {
    for (std::int32_t s = b.first_section; s <= b.last_section; ++s) {
      stacks[static_cast<std::size_t>(s)].push_back({b.size, b.alignment, b.fixed_offset.has_value()});
    }
  }
  std::vector<Bytes> scratch;
  for (std::size_t k = 0; k < sections; ++k) {
    heat[k] = std::max(heat[k], MinStackTop(0, stacks[k], scratch));
  }
  return heat;
}

// Whether some section first..last is hot: its heat within 1/kHotShare of
// the hottest (a window elsewhere would need a larger gap to beat it).
constexpr Bytes kHotShare = 16;
bool AnyHot(const std::vector<Bytes>& heat, std::int32_t first, std::int32_t last, Bytes hottest) {
  for (std::int32_t k = first; k <= last; ++k) {
    if (heat[static_cast<std::size_t>(k)] >= hottest - hottest / kHotShare) return true;
  }
  return false;
}

}  // namespace

Window RestrictToSections(const Subproblem& problem, std::int32_t first, std::int32_t last) {
  Window window;
  std::vector<Bytes> alignments;
  bool any_fixed = false;
  std::vector<std::int32_t> whole;
  for (std::size_t i = 0; i < problem.buffers.size(); ++i) {
    const SearchBuffer& b = problem.buffers[i];
    if (b.last_section < first || b.first_section > last) continue;
    any_fixed = any_fixed || b.fixed_offset.has_value();
    if (b.alignment > 1) alignments.push_back(b.alignment);
    if (b.first_section <= first && b.last_section >= last) whole.push_back(static_cast<std::int32_t>(i));
  }
  std::sort(alignments.begin(), alignments.end());
  alignments.erase(std::unique(alignments.begin(), alignments.end()), alignments.end());
  // A whole-window buffer goes to the bottom when shifting the others up by
  // its size keeps them aligned.
  const auto set_aside = [&](const SearchBuffer& b) {
    if (any_fixed) return false;
    return std::all_of(alignments.begin(), alignments.end(), [&](Bytes a) { return b.size % a == 0; });
  };
  std::size_t next_whole = 0;
  for (std::size_t i = 0; i < problem.buffers.size(); ++i) {
    const SearchBuffer& b = problem.buffers[i];
    if (b.last_section < first || b.first_section > last) continue;
    if (next_whole < whole.size() && whole[next_whole] == static_cast<std::int32_t>(i)) {
      ++next_whole;
      if (set_aside(b)) {
        window.set_aside += b.size;
        continue;
      }
    }
    PackItem item;
    item.size = b.size;
    item.alignment = b.alignment;
    item.start = std::max(b.first_section, first) - first;
    item.end = std::min(b.last_section, last) - first;
    if (b.fixed_offset) item.mutable_fixed_offset() = *b.fixed_offset;
    window.items.push_back(item);
    window.buffers.push_back(static_cast<std::int32_t>(i));
  }
  return window;
}

WindowOutcome DecideWindow(const Window& window, Bytes capacity, std::int64_t node_limit,
                           const std::atomic<bool>* stop, const std::atomic<bool>* abandon,
                           std::atomic<std::int64_t>* node_counter, std::int64_t* spent) {
  *spent = 0;
  if (capacity < window.set_aside) return WindowOutcome::kInfeasible;
  // A fixed buffer stays where it is: above the capacity nothing fits.
  for (const PackItem& item : window.items) {
    if (item.fixed_offset() && *item.fixed_offset() + item.size > capacity) {
      return WindowOutcome::kInfeasible;
    }
  }
  const Bytes room = capacity - window.set_aside;
  const ReducedProblem reduced = ReduceProblem(window.items, 1);
  // A part whose bytes live at once exceed the room needs no search.
  for (const Subproblem& part : reduced.subproblems) {
    if (SubproblemMaxLive(part) > room) return WindowOutcome::kInfeasible;
  }
  WindowOutcome outcome = WindowOutcome::kFeasible;
  for (const Subproblem& part : reduced.subproblems) {
    const std::int64_t left = node_limit - *spent;
    if (left <= 0) return WindowOutcome::kUnknown;
    const Decision decision = DecideCapacity(part, room, 1, stop, abandon, node_counter, left);
    *spent += decision.budget_spent;
    if (decision.outcome == RunOutcome::kExhausted) return WindowOutcome::kInfeasible;
    if (decision.outcome != RunOutcome::kFound) outcome = WindowOutcome::kUnknown;
    if (decision.outcome == RunOutcome::kStopped) return outcome;
  }
  return outcome;
}

WindowProver::WindowProver(const Subproblem& problem, Bytes granularity)
    : granularity_(std::max<Bytes>(granularity, 1)) {
  if (problem.sections < 2) return;
  const std::vector<Bytes> heat = SectionHeat(problem);
  const Bytes hottest = *std::max_element(heat.begin(), heat.end());
  const std::int32_t sections = problem.sections;
  // Dyadic windows: lengths 4, 8, 16, ... below the whole, starting at every
  // multiple of half the length (the last one flush with the end), so any
  // run of L sections lies within one window of length at most 4L.
  for (std::int32_t length = 4; length < sections; length *= 2) {
    const std::int32_t step = length / 2;
    for (std::int32_t first = 0;; first += step) {
      const std::int32_t start = std::min(first, sections - length);
      const std::int32_t last = start + length - 1;
      if (AnyHot(heat, start, last, hottest)) {
        Entry entry;
        entry.window = RestrictToSections(problem, start, last);
        entry.first = start;
        entry.last = last;
        if (!entry.window.items.empty()) windows_.push_back(std::move(entry));
      }
      if (last == sections - 1) break;
    }
  }
  std::stable_sort(windows_.begin(), windows_.end(), [](const Entry& a, const Entry& b) {
    return a.window.items.size() < b.window.items.size();
  });
}

bool WindowProver::Open() const {
  return std::any_of(windows_.begin(), windows_.end(), [](const Entry& e) { return !e.closed; });
}

Bytes WindowProver::Raise(Bytes bound, std::int64_t node_budget, const std::atomic<bool>* stop,
                          const std::atomic<bool>* abandon,
                          std::atomic<std::int64_t>* node_counter, std::int64_t* spent) {
  const auto stopped = [&] {
    return (stop != nullptr && stop->load()) || (abandon != nullptr && abandon->load());
  };
  std::int64_t open = 0;
  for (const Entry& entry : windows_) open += entry.closed ? 0 : 1;
  if (open == 0) return bound;
  const std::int64_t share = node_budget / open;
  std::int64_t used = 0;
  for (Entry& entry : windows_) {
    if (entry.closed) continue;
    // Decided again at each bound its proofs raise.
    while (!stopped()) {
      const std::int64_t first_round = FirstRoundNodes(entry.window.items.size());
      const std::int64_t limit = std::min(std::max(share, first_round), node_budget - used);
      if (limit < first_round) break;
      std::int64_t window_spent = 0;
      const WindowOutcome outcome =
          DecideWindow(entry.window, bound, limit, stop, abandon, node_counter, &window_spent);
      used += window_spent;
      if (outcome == WindowOutcome::kFeasible) entry.closed = true;
      if (outcome != WindowOutcome::kInfeasible) break;
      bound = NextMultipleAbove(bound, granularity_);
      proof_first_ = entry.first;
      proof_last_ = entry.last;
    }
  }
  *spent += used;
  return bound;
}

std::int64_t WindowBoundBudget(std::size_t buffers) {
  return std::max(kWindowBoundMinNodes,
                  kWindowBoundNodesPerBuffer * static_cast<std::int64_t>(buffers));
}

WindowBound WindowLowerBound(const Subproblem& problem, Bytes bound, Bytes granularity,
                             std::int64_t node_budget, const std::atomic<bool>* stop,
                             const std::atomic<bool>* abandon,
                             std::atomic<std::int64_t>* node_counter) {
  WindowBound result;
  result.bound = bound;
  WindowProver prover(problem, granularity);
  if (prover.WindowCount() == 0) return result;
  std::int64_t round = 2 * FirstRoundNodes(problem.buffers.size());
  while (prover.Open() && result.nodes_spent < node_budget) {
    if ((stop != nullptr && stop->load()) || (abandon != nullptr && abandon->load())) break;
    const std::int64_t budget = std::min(round, node_budget - result.nodes_spent);
    std::int64_t spent = 0;
    result.bound = prover.Raise(result.bound, budget, stop, abandon, node_counter, &spent);
    result.nodes_spent += spent;
    if (spent == 0) break;  // no window had room for one first round
    if (round < std::numeric_limits<std::int64_t>::max() / 2) round *= 2;
  }
  result.first_section = prover.proof_first();
  result.last_section = prover.proof_last();
  return result;
}

}  // namespace memplan::exact
