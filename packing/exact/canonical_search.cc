#include "packing/exact/canonical_search.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "packing/pack_support.h"

namespace memplan::exact {
namespace {

constexpr Bytes kNoLimit = std::numeric_limits<Bytes>::max();

Bytes AlignUp(Bytes value, Bytes alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// The two halves of a key term: a floor mixed with the salts of one buffer
// or section (independent random words, KeySalts), in two different ways.
inline std::pair<Bytes, Bytes> SearchKeyTerm(const std::pair<std::uint64_t, std::uint64_t>& salt,
                                             Bytes floor) {
  const auto f = static_cast<std::uint64_t>(floor);
  return {static_cast<Bytes>(Mix64(f ^ salt.first)),
          static_cast<Bytes>(Mix64(f * 0xc2b2ae3d27d4eb4fULL + salt.second))};
}

// `count` pairs of salts for key terms of `kind` (1: buffers, 2: sections).
std::vector<std::pair<std::uint64_t, std::uint64_t>> KeySalts(std::size_t count, std::uint64_t kind) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> salts(count);
  for (std::size_t k = 0; k < count; ++k) {
    salts[k] = {Mix64(kind * 0x9e3779b97f4a7c15ULL + 2 * k), Mix64(kind * 0x9e3779b97f4a7c15ULL + 2 * k + 1)};
  }
  return salts;
}

}  // namespace

CanonicalSearch::CanonicalSearch(const Subproblem& problem, Bytes capacity,
                                 const SearchOrder& order, int priority, bool rerank_parts,
                                 DeadStates* shared_dead_states)
    : problem_(problem),
      capacity_(capacity),
      rank_(order),
      priority_(priority),
      rerank_parts_(rerank_parts),
      dead_states_(shared_dead_states != nullptr ? *shared_dead_states : own_dead_states_) {
  const std::size_t n = problem.buffers.size();
  remaining_ = static_cast<std::int32_t>(n);
  placed_.assign(n, 0);
  offset_.assign(n, 0);
  floor_of_buffer_.assign(n, 0);
  lowest_.assign(n, 0);
  section_floor_.assign(static_cast<std::size_t>(problem.sections), 0);
  section_lowest_.assign(static_cast<std::size_t>(problem.sections), kNoLimit);
  covered_by_low_.assign(static_cast<std::size_t>(problem.sections) + 1, 0);
  open_before_.assign(static_cast<std::size_t>(problem.sections) + 1, 0);
  next_open_.assign(static_cast<std::size_t>(problem.sections) + 2, 0);
  section_unplaced_.assign(static_cast<std::size_t>(problem.sections), 0);
  for (const SearchBuffer& b : problem.buffers) {
    for (std::int32_t s = b.first_section; s <= b.last_section; ++s) {
      section_unplaced_[static_cast<std::size_t>(s)] += b.size;
    }
  }
  crossing_.assign(static_cast<std::size_t>(problem.sections), 0);
  for (const SearchBuffer& b : problem.buffers) {
    for (std::int32_t s = b.first_section; s < b.last_section; ++s) {
      ++crossing_[static_cast<std::size_t>(s)];
    }
  }
  buffer_salts_ = KeySalts(n, 1);
  section_salts_ = KeySalts(static_cast<std::size_t>(problem.sections), 2);
  section_key_low_.assign(static_cast<std::size_t>(problem.sections), 0);
  section_key_high_.assign(static_cast<std::size_t>(problem.sections), 0);
  for (std::size_t b = 0; b < n; ++b) ToggleBuffer(b);
  for (std::size_t s = 0; s < section_key_low_.size(); ++s) {
    if (section_unplaced_[s] > 0) ToggleSection(s, 0);
  }
  plain_.assign(n, 0);
  for (std::size_t b = 0; b < n; ++b) {
    const SearchBuffer& buffer = problem.buffers[b];
    plain_[b] = !buffer.fixed_offset && buffer.fixed_overlaps.empty() && buffer.alignment == 1;
  }
  choices_by_depth_.resize(n + 1);
  trail_.reserve(std::size_t{1} << 12);
  child_parts_.resize(n + 2);
  aligned_ = std::any_of(problem.buffers.begin(), problem.buffers.end(),
                         [](const SearchBuffer& b) { return b.alignment > 1; });
  if (aligned_) section_stack_.resize(static_cast<std::size_t>(problem.sections));
}


inline void CanonicalSearch::ToggleBuffer(std::size_t b) {
  const auto s = static_cast<std::size_t>(problem_.buffers[b].first_section);
  const auto [low, high] = buffer_salts_[b];
  Set(section_key_low_[s], section_key_low_[s] ^ low);
  Set(section_key_high_[s], section_key_high_[s] ^ high);
}

inline void CanonicalSearch::ToggleSection(std::size_t s, Bytes floor) {
  const auto [low, high] = SearchKeyTerm(section_salts_[s], floor);
  Set(section_key_low_[s], section_key_low_[s] ^ low);
  Set(section_key_high_[s], section_key_high_[s] ^ high);
}

Bytes CanonicalSearch::LowestOffset(std::int32_t b) const {
  const SearchBuffer& buffer = problem_.buffers[static_cast<std::size_t>(b)];
  if (buffer.fixed_offset) return *buffer.fixed_offset;
  Bytes offset = AlignUp(floor_of_buffer_[static_cast<std::size_t>(b)], buffer.alignment);
  // Unplaced fixed buffers in the way, by offset: one pass suffices since
  // the offset only rises.
  for (std::int32_t c : buffer.fixed_overlaps) {
    if (placed_[static_cast<std::size_t>(c)]) continue;
    const SearchBuffer& fixed = problem_.buffers[static_cast<std::size_t>(c)];
    if (offset < *fixed.fixed_offset + fixed.size && offset + buffer.size > *fixed.fixed_offset) {
      offset = AlignUp(*fixed.fixed_offset + fixed.size, buffer.alignment);
    }
  }
  return offset;
}

bool CanonicalSearch::Expand(const Part& part, std::vector<Choice>& choices) {
  choices.clear();
  Bytes cutoff = kNoLimit;       // min over movable unplaced of lowest + size
  Bytes first_fixed = kNoLimit;  // min offset of the unplaced fixed buffers
  bool complete = true;
  for (std::int32_t b : part.buffers) {
    if (placed_[static_cast<std::size_t>(b)]) continue;
    complete = false;
    const SearchBuffer& buffer = problem_.buffers[static_cast<std::size_t>(b)];
    // Most buffers have no alignment and no fixed one nearby: their lowest
    // offset is their floor (the call is the general case).
    const Bytes lowest = plain_[static_cast<std::size_t>(b)] ? floor_of_buffer_[static_cast<std::size_t>(b)]
                                                              : LowestOffset(b);
    lowest_[static_cast<std::size_t>(b)] = lowest;
    if (std::max(lowest, last_offset_) + buffer.size > capacity_) return false;
    if (buffer.fixed_offset) {
      if (floor_of_buffer_[static_cast<std::size_t>(b)] > lowest || lowest < last_offset_) {
        return false;
      }
      first_fixed = std::min(first_fixed, lowest);
    } else {
      cutoff = std::min(cutoff, lowest + buffer.size);
    }
  }
  if (complete) return true;
  if (!aligned_) {
    if (!SectionsFit(part)) return false;
  } else {
    if (!AlignedSectionsFit(part)) return false;
  }
  for (std::int32_t b : part.buffers) {
    const auto bi = static_cast<std::size_t>(b);
    if (placed_[bi]) continue;
    const SearchBuffer& buffer = problem_.buffers[bi];
    const Bytes lowest = lowest_[bi];
    if (lowest >= cutoff || lowest > first_fixed) continue;
    if (lowest < last_offset_ || (lowest == last_offset_ && rank_[bi] < last_rank_)) continue;
    if (buffer.equal_previous >= 0 && !placed_[static_cast<std::size_t>(buffer.equal_previous)]) {
      continue;
    }
    choices.push_back({b, lowest});
  }
  std::sort(choices.begin(), choices.end(), [&](const Choice& x, const Choice& y) {
    return std::tie(x.offset, rank_[static_cast<std::size_t>(x.buffer)]) <
           std::tie(y.offset, rank_[static_cast<std::size_t>(y.buffer)]);
  });
  return !choices.empty();
}

bool CanonicalSearch::SectionsFit(const Part& part) {
  // Every section's unplaced bytes go above the highest placed top there
  // and the previous offset: base. Where that already fails, stop; else the
  // section also needs one of its unplaced buffers low enough, at or below
  // capacity - unplaced ("threshold"). A buffer whose lowest offset is at or
  // below every section's threshold satisfies all it covers, so only the
  // sections none of those covers ("open" sections) need their lowest
  // offset, and only the other buffers are visited for them (the same
  // answer as the per-section minimum over every buffer, for a fraction of
  // the work).
  Bytes min_threshold = kNoLimit;
  for (auto s = static_cast<std::size_t>(part.first); s <= static_cast<std::size_t>(part.last); ++s) {
    const Bytes unplaced = section_unplaced_[s];
    if (unplaced == 0) continue;
    if (std::max(section_floor_[s], last_offset_) + unplaced > capacity_) return false;
    min_threshold = std::min(min_threshold, capacity_ - unplaced);
  }
  std::int32_t* const covered = covered_by_low_.data();
  high_spans_.clear();
  for (std::int32_t b : part.buffers) {
    const auto bi = static_cast<std::size_t>(b);
    if (placed_[bi]) continue;
    const SearchBuffer& buffer = problem_.buffers[bi];
    const Bytes lowest = lowest_[bi];
    if (lowest <= min_threshold) {
      ++covered[buffer.first_section];
      --covered[buffer.last_section + 1];
    } else {
      high_spans_.push_back({lowest, std::max(buffer.first_section, part.first),
                             std::min(buffer.last_section, part.last)});
    }
  }
  // open_before_[s]: the open sections of the part before s.
  std::int32_t* const open_before = open_before_.data();
  std::int32_t cover = 0;
  std::int32_t open = 0;
  for (std::int32_t s = part.first; s <= part.last; ++s) {
    const auto si = static_cast<std::size_t>(s);
    cover += covered[si];
    covered[si] = 0;
    open_before[si] = open;
    if (cover == 0 && section_unplaced_[si] > 0) ++open;
  }
  covered[static_cast<std::size_t>(part.last) + 1] = 0;
  open_before[static_cast<std::size_t>(part.last) + 1] = open;
  if (open == 0) return true;
  return OpenSectionsFit(part, open);
}

bool CanonicalSearch::OpenSectionsFit(const Part& part, std::int32_t open) {
  // The lowest offset over each open section, from the high buffers that
  // cover one: ascending by lowest offset, each writes only the open
  // sections no lower one wrote; next_open_ (union-find, path halving)
  // skips the others, so every section is written at most once:
  // O(k log k + s) for k buffers over s sections, not the sum of their spans.
  const std::int32_t* const open_before = open_before_.data();
  const auto opens = [open_before](std::int32_t first, std::int32_t last) {
    return open_before[last + 1] - open_before[first];
  };
  std::erase_if(high_spans_, [&](const HighSpan& span) { return opens(span.first, span.last) == 0; });
  std::sort(high_spans_.begin(), high_spans_.end(),
            [](const HighSpan& x, const HighSpan& y) { return x.lowest < y.lowest; });
  std::int32_t* const next = next_open_.data();
  for (std::int32_t s = part.first; s <= part.last + 1; ++s) {
    next[s] = (s <= part.last && opens(s, s) > 0) ? s : s + 1;
  }
  next[part.last + 1] = part.last + 1;
  const auto find = [next](std::int32_t s) {
    while (next[s] != s) {
      next[s] = next[next[s]];
      s = next[s];
    }
    return s;
  };
  std::int32_t written = 0;
  for (const HighSpan& span : high_spans_) {
    for (std::int32_t s = find(span.first); s <= span.last; s = find(s + 1)) {
      const auto si = static_cast<std::size_t>(s);
      // The lowest offset any unplaced buffer of this open section can take.
      if (std::max({section_floor_[si], last_offset_, span.lowest}) + section_unplaced_[si] >
          capacity_) {
        return false;
      }
      next[s] = s + 1;
      ++written;
    }
    if (written == open) return true;
  }
  return false;  // an open section no unplaced buffer covers cannot happen; stay safe
}

bool CanonicalSearch::AlignedSectionsFit(const Part& part) {
  // Cross-section inference: the unplaced buffers of a section all go above
  // its floor, the previous offset and the lowest offset any of them can take.
  for (std::int32_t b : part.buffers) {
    const auto bi = static_cast<std::size_t>(b);
    if (placed_[bi]) continue;
    const SearchBuffer& buffer = problem_.buffers[bi];
    const Bytes lowest = lowest_[bi];
    Bytes* const section_lowest = section_lowest_.data();
    for (auto s = static_cast<std::size_t>(buffer.first_section);
         s <= static_cast<std::size_t>(buffer.last_section); ++s) {
      section_lowest[s] = std::min(section_lowest[s], lowest);
    }
    for (auto s = static_cast<std::size_t>(buffer.first_section);
         s <= static_cast<std::size_t>(buffer.last_section); ++s) {
      section_stack_[s].push_back({buffer.size, buffer.alignment, buffer.fixed_offset.has_value()});
    }
  }
  bool fits = true;
  for (auto s = static_cast<std::size_t>(part.first); s <= static_cast<std::size_t>(part.last); ++s) {
    const Bytes unplaced = section_unplaced_[s];
    const Bytes floor = std::max({section_floor_[s], last_offset_, section_lowest_[s]});
    section_lowest_[s] = kNoLimit;  // reset the scratch for the next node
    if (unplaced > 0 && floor + unplaced > capacity_) fits = false;
    // With alignments, the bytes they force to stay empty count too.
    if (fits && unplaced > 0 && MinStackTop(floor, section_stack_[s], waste_scratch_) > capacity_) {
      fits = false;
    }
    section_stack_[s].clear();
  }
  return fits;
}

bool CanonicalSearch::Place(const Choice& choice) {
  trail_marks_.push_back(trail_.size());
  const auto b = static_cast<std::size_t>(choice.buffer);
  const SearchBuffer& buffer = problem_.buffers[b];
  ToggleBuffer(b);
  placed_[b] = 1;
  offset_[b] = choice.offset;
  placed_order_.push_back(choice.buffer);
  --remaining_;
  const Bytes top = choice.offset + buffer.size;
  bool raised = false;
  for (std::int32_t q : buffer.overlaps) {
    const auto qi = static_cast<std::size_t>(q);
    if (!placed_[qi] && floor_of_buffer_[qi] < top) {
      Set(floor_of_buffer_[qi], top);
      raised = true;
    }
  }
  for (std::int32_t s = buffer.first_section; s <= buffer.last_section; ++s) {
    const auto si = static_cast<std::size_t>(s);
    ToggleSection(si, section_floor_[si]);  // it had unplaced bytes: this buffer's
    Set(section_floor_[si], top);
    Set(section_unplaced_[si], section_unplaced_[si] - buffer.size);
    if (section_unplaced_[si] > 0) ToggleSection(si, top);
    if (s < buffer.last_section) Set(crossing_[si], crossing_[si] - 1);
  }
  Set(last_offset_, choice.offset);
  Set(last_rank_, rank_[b]);
  return raised;
}

void CanonicalSearch::Undo() {
  const std::size_t mark = trail_marks_.back();
  trail_marks_.pop_back();
  while (trail_.size() > mark) {
    *trail_.back().first = trail_.back().second;
    trail_.pop_back();
  }
  const std::int32_t b = placed_order_.back();
  placed_order_.pop_back();
  const auto bi = static_cast<std::size_t>(b);
  placed_[bi] = 0;
  ++remaining_;
}

void CanonicalSearch::UndoTo(std::size_t placed) {
  while (placed_order_.size() > placed) Undo();
}

bool StopFlags::Any() const {
  for (const std::atomic<bool>* flag : {first, second, third}) {
    if (flag != nullptr && flag->load(std::memory_order_relaxed)) return true;
  }
  return false;
}

RunOutcome CanonicalSearch::Run(StopFlags flags, std::atomic<std::int64_t>* node_counter,
                                   std::int64_t node_limit) {
  stopped_ = false;
  limit_hit_ = false;
  flags_ = flags;
  node_counter_ = node_counter;
  node_budget_end_ = node_limit > std::numeric_limits<std::int64_t>::max() - nodes_
                         ? std::numeric_limits<std::int64_t>::max()
                         : nodes_ + node_limit;
  Part root;
  root.first = 0;
  root.last = problem_.sections - 1;
  for (std::size_t b = 0; b < problem_.buffers.size(); ++b) {
    if (!placed_[b]) root.buffers.push_back(static_cast<std::int32_t>(b));
  }
  const bool found = Dfs(root);
  if (node_counter_ != nullptr) node_counter_->fetch_add(nodes_ - nodes_reported_);
  nodes_reported_ = nodes_;
  if (found) return RunOutcome::kFound;
  if (limit_hit_) return RunOutcome::kNodeLimit;
  return stopped_ ? RunOutcome::kStopped : RunOutcome::kExhausted;
}

bool CanonicalSearch::ShouldStop() {
  if (node_counter_ != nullptr) {
    node_counter_->fetch_add(nodes_ - nodes_reported_, std::memory_order_relaxed);
    nodes_reported_ = nodes_;
  }
  return flags_.Any();
}

bool CanonicalSearch::Dfs(const Part& part) {
  ++nodes_;
  if (nodes_ >= node_budget_end_) {
    limit_hit_ = true;
    stopped_ = true;
  }
  if ((nodes_ & 255) == 0 && ShouldStop()) stopped_ = true;
  if (stopped_) return false;
  const std::size_t depth = placed_order_.size();
  std::vector<Choice>& choices = choices_by_depth_[depth];
  const SearchStateKey key = KeyOf(part);
  if (dead_states_.count(key) > 0) return false;
  const auto dead = [&] {
    if (stopped_) return false;
    if (dead_states_.size() >= (std::size_t{1} << 21)) dead_states_.clear();
    dead_states_.insert(key);
    return false;
  };
  if (!Expand(part, choices)) return dead();
  if (choices.empty()) return true;  // the part is complete
  std::vector<std::int32_t> cuts;
  for (std::size_t k = 0; k < choices.size(); ++k) {
    const Choice choice = choices[k];
    const bool raised = Place(choice);
    // New cut points: boundaries inside the placed buffer's range (and the
    // part's) that no unplaced buffer crosses any more.
    const SearchBuffer& buffer = problem_.buffers[static_cast<std::size_t>(choice.buffer)];
    cuts.clear();
    for (std::int32_t s = std::max(buffer.first_section, part.first);
         s < std::min(buffer.last_section, part.last); ++s) {
      if (crossing_[static_cast<std::size_t>(s)] == 0) cuts.push_back(s);
    }
    bool found;
    if (cuts.empty()) {
      // The same part without the placed buffer: nodes pass only their
      // unplaced buffers down, so that Expand visits no placed one.
      Part& child = child_parts_[depth + 1];
      child.first = part.first;
      child.last = part.last;
      child.context = part.context;
      child.buffers.clear();
      for (std::int32_t b : part.buffers) {
        if (!placed_[static_cast<std::size_t>(b)]) child.buffers.push_back(b);
      }
      found = Dfs(child);
    } else {
      found = SolveParts(part, cuts);
    }
    if (found) return true;  // keep the packing in offset_
    UndoTo(depth);
    if (stopped_) return false;
    if (!raised) break;  // hatless: nothing else can go first usefully
  }
  return dead();
}

SearchStateKey CanonicalSearch::KeyOf(const Part& part) const {
  std::uint64_t low = 0, high = 0;
  for (auto s = static_cast<std::size_t>(part.first); s <= static_cast<std::size_t>(part.last); ++s) {
    low ^= static_cast<std::uint64_t>(section_key_low_[s]);
    high ^= static_cast<std::uint64_t>(section_key_high_[s]);
  }
  SearchStateKey key{low, high};
  const auto mix = [&key](std::uint64_t a, std::uint64_t b) {
    key.low = Mix64(key.low ^ Mix64(a * 0x9e3779b97f4a7c15ULL + b));
    key.high = Mix64(key.high + Mix64(b * 0xc2b2ae3d27d4eb4fULL ^ a) + 0x165667b19e3779f9ULL);
  };
  mix(static_cast<std::uint64_t>(part.first), static_cast<std::uint64_t>(part.last));
  mix(static_cast<std::uint64_t>(last_offset_), static_cast<std::uint64_t>(last_rank_ + 1));
  mix(part.context, 3);
  return key;
}

bool CanonicalSearch::SolveParts(const Part& part, const std::vector<std::int32_t>& cuts) {
  std::vector<Part> parts;
  std::int32_t from = part.first;
  for (std::size_t k = 0; k <= cuts.size(); ++k) {
    Part piece;
    piece.first = from;
    piece.last = k < cuts.size() ? cuts[k] : part.last;
    from = piece.last + 1;
    parts.push_back(std::move(piece));
  }
  for (std::int32_t b : part.buffers) {
    if (placed_[static_cast<std::size_t>(b)]) continue;
    const std::int32_t first = problem_.buffers[static_cast<std::size_t>(b)].first_section;
    const auto it = std::upper_bound(cuts.begin(), cuts.end(), first - 1);
    parts[static_cast<std::size_t>(it - cuts.begin())].buffers.push_back(b);
  }
  // With rerank_parts_, each part is ranked again for what is left of it
  // (the ranks in force before are restored on the way out).
  std::vector<std::int32_t> saved_ranks;
  if (rerank_parts_) {
    for (const Part& piece : parts) {
      for (std::int32_t b : piece.buffers) saved_ranks.push_back(rank_[static_cast<std::size_t>(b)]);
    }
  }
  bool found = true;
  // Each part continues the offset order from the placement that split it:
  // if the whole has a packing, its canonical one puts every unplaced buffer
  // at or above that offset (at it only after the last rank), and it stays
  // canonical within each part. With the ranks redone, equal offsets may go
  // in any rank order. (MiniMalloc restarts each part at offset 0 and only
  // checks the sections against that floor; keeping the floor prunes far
  // more: on its H, found in under a second instead of not in 10 s.)
  const Bytes split_offset = last_offset_;
  const Bytes split_rank = last_rank_;
  for (Part& piece : parts) {
    if (piece.buffers.empty()) continue;
    if (rerank_parts_) RankBuffers(problem_, piece.buffers, section_unplaced_, priority_, rank_);
    Set(last_offset_, split_offset);
    Set(last_rank_, rerank_parts_ ? -1 : split_rank);
    // The ranks just given are a function of this state: it stands for
    // them in the keys of the piece's nodes.
    if (rerank_parts_) piece.context = KeyOf(piece).low;
    if (!Dfs(piece)) {
      found = false;
      break;
    }
  }
  if (rerank_parts_) {
    std::size_t k = 0;
    for (const Part& piece : parts) {
      for (std::int32_t b : piece.buffers) rank_[static_cast<std::size_t>(b)] = saved_ranks[k++];
    }
  }
  return found;
}

}  // namespace memplan::exact
