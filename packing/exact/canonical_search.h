// Depth-first search over canonical packings of one subproblem for a fixed
// capacity: the decision "is there a packing with peak <= capacity?".
//
// Ideas from MiniMalloc (M. D. Moffitt, ASPLOS 2023), in this design:
// * Canonical solutions: every packing can be pushed down until each buffer
//   sits at 0, on top of a buffer it overlaps in time (aligned up) or at a
//   fixed offset, without raising the peak. Listed by offset (ties by the
//   search order), each buffer of such a packing is at its lowest offset
//   given the ones before it. So the search places buffers one at a time in
//   non-decreasing offset order, each at that lowest offset, and skips a
//   buffer whose lowest offset is below the previous one (it must first be
//   lifted by a buffer placed under it) or equal with an earlier rank.
// * Dominance: a buffer is not tried at offset o if some unplaced buffer c
//   would end at or below o (lowest_c + size_c <= o): c fits under it, and
//   putting c there first never hurts.
// * Cross-section inference: in every section, the unplaced buffers must fit
//   between the capacity and the section's floor: the highest of the tops of
//   the placed buffers there, the previous offset and the lowest offset any
//   unplaced buffer there can take (MiniMalloc's "unallocated floor"), with
//   the bytes their alignments force to stay empty (alignment_waste.h).
// * Symmetry breaking: interchangeable buffers (equal size, alignment and
//   live range) go in number order.
// * Dynamic decomposition: once every buffer crossing a section boundary is
//   placed, the unplaced buffers on either side no longer interact; each
//   side is searched on its own (the offset order continuing from the
//   offset of the placement that split them, which a canonical packing of
//   the whole respects; MiniMalloc restarts at 0, which leaves far more to
//   search: its H went from not found in 10 s to found; with rerank_parts
//   its buffers ranked again with the crowd of the bytes still unplaced, as
//   MiniMalloc does per partition, else the static ranks kept: measured,
//   each is much faster than the other on some inputs — static solves F
//   and G of MiniMalloc's set, re-ranked I), and the node fails as soon as
//   one side does — no search over their combinations.
// * Hatless pruning (MiniMalloc): if a buffer placed at its lowest offset
//   lifted no unplaced buffer (nothing overlapping it is left to go above
//   it) and its subtree fails, the node fails: no other choice first can
//   help, as that buffer would still go at the same place.
// * Nogood memo: a node is fully described by its unplaced buffers, their
//   floors (and ranks, when parts are re-ranked: the state the part had
//   when it was ranked stands for them), the section floors under them and
//   the previous offset and rank;
//   a node proven dead is remembered (a 128-bit hash of that state, up to
//   2^21 of them) and not searched again when another order reaches it.
//   The hash is a XOR of one term per unplaced buffer and per section
//   (Zobrist hashing), kept per section as buffers are placed, so a node's
//   key costs a pass over its part's sections, not over its buffers.
// Fixed buffers (fixed_offset) are placed at their offset when the offset
// order reaches them; a buffer whose lowest offset lies above an unplaced
// fixed buffer's offset is not tried (the fixed one could no longer go).
//
// Each node costs O(u + k log k + d + s): u unplaced buffers, k of them
// above the lowest section threshold (sorted once, each section of theirs
// visited at most once), d time-overlap neighbours of the placed buffer, s
// sections; with alignments, O(u + w + d + s) where w is the sections the
// unplaced buffers span together.
#pragma once

#include <atomic>
#include <unordered_set>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "ir/units.h"
#include "packing/exact/alignment_waste.h"
#include "packing/exact/exact_problem.h"
#include "packing/exact/search_order.h"

namespace memplan::exact {

// A branching choice: put `buffer` at `offset` next.
struct Choice {
  std::int32_t buffer = 0;
  Bytes offset = 0;
};

// Flags a search watches (any may be null): it stops when one becomes true.
struct StopFlags {
  const std::atomic<bool>* first = nullptr;
  const std::atomic<bool>* second = nullptr;
  const std::atomic<bool>* third = nullptr;
  bool Any() const;
};

enum class RunOutcome {
  kFound,      // a packing within the capacity (offsets())
  kExhausted,  // proven: none exists
  kNodeLimit,  // the node limit ended the search first
  kStopped,    // the stop or abandon flag did
};

// A node's memo key: a 128-bit hash of its state.
struct SearchStateKey {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  bool operator==(const SearchStateKey& other) const = default;
};
struct SearchStateKeyHash {
  std::size_t operator()(const SearchStateKey& key) const { return static_cast<std::size_t>(key.low); }
};
// The memo of nodes proven dead.
using DeadStates = std::unordered_set<SearchStateKey, SearchStateKeyHash>;

class CanonicalSearch {
 public:
  // `problem` must outlive the search; `order` is SearchOrders(problem)
  // [priority]; with `rerank_parts` the parts of a decomposition are ranked
  // again by that priority (RankBuffers).
  // `shared_dead_states` (may be null: the search keeps its own) is a memo
  // the search of the same problem, capacity and order with the other
  // rerank_parts may use too, never at the same time: the nodes of the
  // undivided problem have the same state, ranks and key in both (the ranks
  // differ only inside parts, whose keys carry their ranking's context), and
  // both searches are complete from such a node, so a node one proves dead
  // is dead for the other. Must outlive the search.
  CanonicalSearch(const Subproblem& problem, Bytes capacity, const SearchOrder& order,
                  int priority, bool rerank_parts, DeadStates* shared_dead_states = nullptr);

  // Searches below the current node until a packing is found (kept in
  // offsets()), the subtree is exhausted, `node_limit` nodes are visited or
  // one of `flags` becomes true (checked every 256 nodes). Adds the nodes it
  // visits to nodes() and to `*node_counter` if given.
  RunOutcome Run(StopFlags flags, std::atomic<std::int64_t>* node_counter = nullptr,
                    std::int64_t node_limit = std::numeric_limits<std::int64_t>::max());

  const std::vector<Bytes>& offsets() const { return offset_; }
  std::int64_t nodes() const { return nodes_; }

 private:
  // A set of buffers over sections [first, last] that interact with no
  // unplaced buffer outside it.
  struct Part {
    std::int32_t first = 0;
    std::int32_t last = 0;
    std::vector<std::int32_t> buffers;  // unplaced when a node of it starts
    // With rerank_parts: the memo key of the part when it was split off and
    // ranked (the ranks are a function of it), else 0.
    std::uint64_t context = 0;
  };
  // The choices at the current node of `part` in search order (offset, then
  // rank). Returns false if the node is dead; true with no choices when the
  // part is complete.
  bool Expand(const Part& part, std::vector<Choice>& choices);
  // Cross-section inference at the current node of `part` (lowest_ filled
  // for its unplaced buffers): whether every section's unplaced bytes fit
  // between its floor and the capacity; AlignedSectionsFit when any buffer
  // has an alignment > 1 (with the bytes alignments waste).
  bool SectionsFit(const Part& part);
  bool AlignedSectionsFit(const Part& part);
  // SectionsFit's last step, for the `open` sections (no buffer low enough
  // for every section covers them) of the part: each needs its lowest
  // unplaced buffer (from high_spans_) low enough. O(k log k + sections).
  bool OpenSectionsFit(const Part& part, std::int32_t open);
  // Returns whether the placement raised the floor of an unplaced buffer.
  bool Place(const Choice& choice);
  void Undo();
  void UndoTo(std::size_t placed);
  bool Dfs(const Part& part);
  // Searches the parts `part` falls into at the boundaries `cuts` (section k
  // | k + 1 for k in cuts, ascending), one after the other.
  bool SolveParts(const Part& part, const std::vector<std::int32_t>& cuts);
  // The memo key of the node of `part`: O(sections of the part), from the
  // per-section terms kept up to date by Place (ToggleBuffer, ToggleSection).
  SearchStateKey KeyOf(const Part& part) const;
  // Adds or removes (XOR) the key term of unplaced buffer b, or of section s
  // with floor `floor`, in the key sum of its (first) section. A buffer's
  // term needs no floor: an unplaced buffer's floor is the highest floor of
  // the sections it covers, which all have unplaced bytes and so terms.
  void ToggleBuffer(std::size_t b);
  void ToggleSection(std::size_t s, Bytes floor);
  bool ShouldStop();
  Bytes LowestOffset(std::int32_t b) const;
  // Sets `slot` to `value`, recording the old value on the trail.
  void Set(Bytes& slot, Bytes value) {
    trail_.push_back({&slot, slot});
    slot = value;
  }

  const Subproblem& problem_;
  Bytes capacity_;
  SearchOrder rank_;  // current rank per buffer
  int priority_ = 0;
  bool rerank_parts_ = false;
  std::int32_t remaining_ = 0;
  std::vector<char> placed_;
  std::vector<Bytes> offset_;
  std::vector<Bytes> floor_of_buffer_;   // max top of placed buffers it overlaps
  std::vector<Bytes> section_floor_;     // max top of placed buffers in the section
  std::vector<Bytes> section_unplaced_;  // bytes of unplaced buffers in the section
  std::vector<Bytes> crossing_;  // unplaced buffers covering sections k and k + 1
  // Per section s, the XOR of the key terms of the unplaced buffers that
  // start in s (their number) and, while s has unplaced bytes, of s
  // (section number, floor): two independent 64-bit halves, stored as Bytes
  // so that the trail restores them. A node's key is their XOR over its
  // part's sections (Zobrist hashing), not a pass over its buffers.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> buffer_salts_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> section_salts_;
  std::vector<Bytes> section_key_low_;
  std::vector<Bytes> section_key_high_;
  Bytes last_offset_ = 0;
  Bytes last_rank_ = -1;  // rank of the buffer placed last (-1: none)
  std::vector<std::int32_t> placed_order_;
  std::vector<std::pair<Bytes*, Bytes>> trail_;
  std::vector<std::size_t> trail_marks_;
  std::vector<Bytes> lowest_;  // scratch: lowest offset per buffer at a node
  // Per buffer: not fixed, no fixed buffer overlaps it, alignment 1 (its
  // lowest offset is its floor).
  std::vector<char> plain_;
  std::vector<Bytes> section_lowest_;  // scratch: min lowest offset of the unplaced per section
  // Scratch of SectionsFit: +1 / -1 at the ends of each buffer low enough
  // for every section (one entry past the last section).
  std::vector<std::int32_t> covered_by_low_;
  // Scratch of SectionsFit: the unplaced buffers above the lowest
  // threshold, and per section the open sections before it.
  struct HighSpan {
    Bytes lowest;
    std::int32_t first, last;  // sections
  };
  std::vector<HighSpan> high_spans_;
  std::vector<std::int32_t> open_before_;
  std::vector<std::int32_t> next_open_;
  // With any alignment > 1: the unplaced buffers per section (scratch of a
  // node) for the alignment-waste bound (alignment_waste.h).
  bool aligned_ = false;
  std::vector<std::vector<StackBuffer>> section_stack_;
  std::vector<Bytes> waste_scratch_;
  std::vector<std::vector<Choice>> choices_by_depth_;
  // child_parts_[d]: the part a node with d - 1 buffers placed hands to its
  // child (its unplaced buffers only).
  std::vector<Part> child_parts_;
  DeadStates own_dead_states_;
  DeadStates& dead_states_;  // own_dead_states_ or the one shared
  std::int64_t nodes_ = 0;
  std::int64_t node_budget_end_ = 0;
  std::int64_t nodes_reported_ = 0;
  bool stopped_ = false;
  bool limit_hit_ = false;
  StopFlags flags_;
  std::atomic<std::int64_t>* node_counter_ = nullptr;
};

}  // namespace memplan::exact
