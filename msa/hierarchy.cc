#include "msa/hierarchy.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/diagnostic.h"
#include "msa/alternate_heap.h"

namespace memplan {
namespace {

// The levels of `target` that `device` may access: bit l for level l.
std::uint64_t AccessibleLevels(const Target& target, std::string_view device) {
  std::uint64_t mask = 0;
  for (std::size_t l = 0; l < target.spaces.size(); ++l) {
    if (DeviceMayAccess(target.spaces[l], device)) mask |= std::uint64_t{1} << l;
  }
  return mask;
}

// What the home choice needs to know of one buffer.
struct HomeFacts {
  std::uint64_t levels = ~std::uint64_t{0};  // bit l: every accessing op may access level l
  bool constant = false;    // constant lifetime, written by no compute op
  double bytes = 0;         // execution-weighted bytes its ops access
  OpId first_op = kNoId;    // an op accessing it (for messages)
};

std::vector<HomeFacts> HomeFactsOf(const Program& program, const ProgramAnalysis& analysis,
                               const CostModel& cost, const Target& target) {
  const std::size_t n = analysis.buffers.buffers.size();
  std::vector<HomeFacts> facts(n);
  std::vector<bool> written(n, false);
  for (OpId op : analysis.schedule.order) {
    const std::string device = OpDevice(program, op);
    const std::uint64_t mask = AccessibleLevels(target, device);
    const OpBuffers& ob = analysis.op_buffers[op];
    auto note = [&](BufferId b, double bytes, bool write) {
      if (b == kNoId) return;
      facts[b].levels &= mask;
      facts[b].bytes += bytes * cost.ExecutionCount(op);
      if (facts[b].first_op == kNoId) facts[b].first_op = op;
      if (write && program.ops[op].kind != OpKind::kConstant) written[b] = true;
    };
    for (std::size_t i = 0; i < ob.operands.size(); ++i) {
      note(ob.operands[i], cost.OperandBytesAccessed(op, static_cast<int>(i)), false);
    }
    for (std::size_t i = 0; i < ob.results.size(); ++i) {
      note(ob.results[i], cost.ResultBytesAccessed(op, static_cast<int>(i)), true);
    }
    if (ob.scratch != kNoId) note(ob.scratch, 0, true);
  }
  for (std::size_t b = 0; b < n; ++b) {
    facts[b].constant = analysis.buffers.buffers[b].lifetime == Lifetime::kConstant && !written[b];
  }
  return facts;
}

bool HeldToTheEnd(const Buffer& b) {
  return b.lifetime == Lifetime::kConstant || b.lifetime == Lifetime::kVariable ||
         b.lifetime == Lifetime::kExternal;
}

struct HomeRule {
  std::vector<int> levels;     // in the order tried
  bool constants_read_only_first = false;
  bool by_size = false;        // banked order; else bytes accessed per byte
  bool staged = false;         // copies may be staged; else a home needs direct links
};

// True if some level's copies to or from level 0 can only be staged
// (FindCopyRoute gives an intermediate level): only then are the staged
// candidates planned.
bool StagesCopies(const Target& target) {
  for (int l = 1; l < static_cast<int>(target.spaces.size()); ++l) {
    for (const auto& [from, to] : {std::pair{l, 0}, std::pair{0, l}}) {
      const std::optional<CopyRoute> route = FindCopyRoute(target, from, to);
      if (route && route->via >= 0) return true;
    }
  }
  return false;
}

// A staged prefetch's chunk: its intermediate level and offset there.
struct StagingChunk {
  int level = 0;
  Bytes offset = 0;
};

// Home levels for the buffers with `needs_home` and their best-fit offsets
// there, or the first buffer that fits nowhere; per copy of the level-0
// result, its staging chunk when its route from the home is staged.
struct Homes {
  std::vector<MemorySpace> home;
  std::vector<std::optional<Bytes>> offset;
  std::vector<std::optional<StagingChunk>> staging;
  BufferId failed = kNoId;
};

// The closed step range a copy counts as outstanding on its links over (as
// the verifier's rule 15 counts it).
std::pair<TimeStep, TimeStep> Outstanding(const AsyncCopy& c) {
  return {c.start, std::max(c.start, c.done)};
}

// True if the copies `copies` (indices into `all`; never sharing a step)
// can join those already outstanding over `open` on a link of
// max_outstanding `limit`. Level 0's allocator counts the limits of the
// links into and out of level 0 (HierarchyCandidates), not those of a
// staged copy's first leg: this does. O(open log open) per copy.
bool WithinLinkLimit(const std::vector<std::pair<TimeStep, TimeStep>>& open, std::int64_t limit,
                     const std::vector<AsyncCopy>& all, const std::vector<std::size_t>& copies) {
  for (std::size_t i : copies) {
    const auto [start, done] = Outstanding(all[i]);
    std::vector<std::pair<TimeStep, int>> events;
    for (const auto& [s, d] : open) {
      if (s > done || d < start) continue;
      events.emplace_back(std::max(s, start), 1);
      events.emplace_back(std::min(d, done) + 1, -1);
    }
    std::sort(events.begin(), events.end());
    std::int64_t count = 1;  // this copy
    if (count > limit) return false;
    for (const auto& [step, delta] : events) {
      count += delta;
      if (count > limit) return false;
    }
  }
  return true;
}

// One direction of a buffer's copies staged through level `via`: `away`
// is the leg's link that does not touch level 0 (home -> via for
// prefetches, via -> home for evictions), whose max_outstanding level 0's
// allocator does not count.
struct StagedGroup {
  int via = 0;
  const LinkSpec* away = nullptr;
  const std::vector<std::size_t>* copies = nullptr;  // indices into the level-0 copies
};

// Reserves a best-fit chunk in its via level's heap for every copy of
// `groups` over StagingSteps, and records it in `staging` and the away
// legs' outstanding ranges in `away_legs`; false, with nothing reserved
// or recorded, when a chunk finds no room or an away leg would exceed its
// link's max_outstanding.
bool StageGroups(const std::vector<StagedGroup>& groups, const std::vector<AsyncCopy>& all,
                 std::vector<AlternateHeap>& heaps,
                 std::map<const LinkSpec*, std::vector<std::pair<TimeStep, TimeStep>>>& away_legs,
                 std::vector<std::optional<StagingChunk>>& staging) {
  for (const StagedGroup& g : groups) {
    if (g.away->max_outstanding &&
        !WithinLinkLimit(away_legs[g.away], *g.away->max_outstanding, all, *g.copies)) {
      return false;
    }
  }
  std::vector<std::pair<AlternateHeap*, IntervalTree::Handle>> committed;
  std::vector<std::pair<std::size_t, StagingChunk>> chunks;
  for (const StagedGroup& g : groups) {
    AlternateHeap& heap = heaps[static_cast<std::size_t>(g.via)];
    for (std::size_t i : *g.copies) {
      const auto [from, to] = StagingSteps(all[i]);
      const std::optional<Bytes> offset = heap.BestFit(from, to, all[i].bytes);
      if (!offset) {
        for (const auto& [h, handle] : committed) h->Uncommit(handle);
        return false;
      }
      committed.emplace_back(&heap, heap.Commit(from, to, *offset, all[i].bytes));
      chunks.emplace_back(i, StagingChunk{g.via, *offset});
    }
  }
  for (const auto& [i, chunk] : chunks) staging[i] = chunk;
  for (const StagedGroup& g : groups) {
    if (!g.away->max_outstanding) continue;
    for (std::size_t i : *g.copies) away_legs[g.away].push_back(Outstanding(all[i]));
  }
  return true;
}

Homes ChooseHomes(const ProgramAnalysis& analysis, const Target& target,
                  const std::vector<HomeFacts>& facts, const MsaResult& fast,
                  const std::vector<bool>& needs_home, const HomeRule& rule,
                  Bytes plan_alignment) {
  const BufferSet& buffers = analysis.buffers;
  const std::size_t n = buffers.buffers.size();
  Homes out;
  out.home.assign(n, kDefaultSpace);
  out.offset.assign(n, std::nullopt);
  out.staging.assign(fast.copies.size(), std::nullopt);
  std::vector<std::vector<std::size_t>> prefetches(n), evictions(n);
  for (std::size_t i = 0; i < fast.copies.size(); ++i) {
    const AsyncCopy& c = fast.copies[i];
    (c.kind == CopyKind::kPrefetch ? prefetches : evictions)[static_cast<std::size_t>(c.buffer)]
        .push_back(i);
  }
  // Per away-leg link of the staged copies so far: their outstanding
  // ranges (only for links with a max_outstanding).
  std::map<const LinkSpec*, std::vector<std::pair<TimeStep, TimeStep>>> away_legs;
  std::vector<AlternateHeap> heaps;
  for (const MemorySpaceSpec& s : target.spaces) {
    const Bytes alignment =
        AlignmentLcm(s.alignment, std::max<Bytes>(1, plan_alignment)).value_or(s.alignment);
    heaps.emplace_back(s.capacity_bytes, alignment);
  }
  std::vector<BufferId> order;
  for (BufferId b = 0; b < static_cast<BufferId>(n); ++b) {
    if (needs_home[b] && !buffers.buffers[b].inside()) order.push_back(b);
  }
  auto density = [&](BufferId b) {
    const Bytes size = buffers.buffers[b].size;
    return size > 0 ? facts[b].bytes / static_cast<double>(size) : facts[b].bytes;
  };
  std::stable_sort(order.begin(), order.end(), [&](BufferId x, BufferId y) {
    const Bytes sx = buffers.buffers[x].size, sy = buffers.buffers[y].size;
    if (rule.by_size) return sx > sy;
    const double dx = density(x), dy = density(y);
    if (dx != dy) return dx > dy;
    return sx > sy;
  });
  for (BufferId b : order) {
    const Buffer& buffer = buffers.buffers[b];
    const TimeStep end = HeldToTheEnd(buffer) ? buffers.time_steps - 1 : buffer.end;
    std::vector<int> tries = rule.levels;
    if (rule.constants_read_only_first && facts[b].constant) {
      std::stable_partition(tries.begin(), tries.end(), [&](int l) {
        return !target.spaces[static_cast<std::size_t>(l)].writable;
      });
    }
    bool placed = false;
    for (int l : tries) {
      const MemorySpaceSpec& s = target.spaces[static_cast<std::size_t>(l)];
      if (!(facts[b].levels >> l & 1)) continue;
      if (!s.writable && !facts[b].constant) continue;
      // Prefetches take the route from the home, evictions the route to
      // it: over a link, or staged through a level (FindCopyRoute).
      std::optional<CopyRoute> in, out_of;
      if (l != 0 && !prefetches[b].empty()) {
        in = FindCopyRoute(target, l, 0);
        if (!in || (in->via >= 0 && !rule.staged)) continue;
      }
      if (l != 0 && !evictions[b].empty()) {
        out_of = FindCopyRoute(target, 0, l);
        if (!out_of || (out_of->via >= 0 && !rule.staged)) continue;
      }
      // The cross-program prefetch runs before the program (its copy spans
      // no step to stage through): it needs a direct link.
      if (l != 0 && fast.cross_program_prefetch && fast.cross_program_prefetch->buffer == b &&
          !FindLink(target, l, 0)) {
        continue;
      }
      const std::optional<Bytes> offset = heaps[static_cast<std::size_t>(l)].BestFit(
          buffer.start, end, buffer.size);
      if (!offset) continue;
      std::vector<StagedGroup> groups;
      if (in && in->via >= 0) {
        groups.push_back({in->via, FindLink(target, l, in->via), &prefetches[b]});
      }
      if (out_of && out_of->via >= 0) {
        groups.push_back({out_of->via, FindLink(target, out_of->via, l), &evictions[b]});
      }
      if (!StageGroups(groups, fast.copies, heaps, away_legs, out.staging)) continue;
      heaps[static_cast<std::size_t>(l)].Commit(buffer.start, end, *offset, buffer.size);
      out.home[b] = SpaceIdOfLevel(target, l);
      out.offset[b] = *offset;
      placed = true;
      break;
    }
    if (!placed) {
      out.failed = b;
      return out;
    }
  }
  // A nested buffer lives in its container's bytes.
  for (BufferId b = 0; b < static_cast<BufferId>(n); ++b) {
    if (const auto& in = buffers.buffers[b].inside()) out.home[b] = out.home[in->container];
  }
  return out;
}

}  // namespace

std::string OpDevice(const Program& program, OpId op) {
  const Op& o = program.ops[op];
  return o.affinity ? *o.affinity : std::string(kHostDevice);
}

absl::Status CheckHierarchyAccess(const Program& program, const ProgramAnalysis& analysis,
                                  const Target& target) {
  std::vector<std::uint64_t> levels(analysis.buffers.buffers.size(), ~std::uint64_t{0});
  std::vector<OpId> narrowed_by(analysis.buffers.buffers.size(), kNoId);
  for (OpId op : analysis.schedule.order) {
    const std::string device = OpDevice(program, op);
    const std::uint64_t mask = AccessibleLevels(target, device);
    const OpBuffers& ob = analysis.op_buffers[op];
    std::vector<BufferId> touched = ob.operands;
    touched.insert(touched.end(), ob.results.begin(), ob.results.end());
    for (BufferId b : touched) {
      if (b == kNoId) continue;
      if (mask == 0) {
        return LocatedError(program.source, program.ops[op].loc,
                            absl::StrCat("op '", program.OpName(op), "' runs on device '", device,
                                         "', which can access no memory space of target '",
                                         target.name, "' for its operands and results"));
      }
      if ((levels[b] & mask) == 0) {
        const OpId other = narrowed_by[b];
        return LocatedError(
            program.source, program.ops[op].loc,
            absl::StrCat("op '", program.OpName(op), "' on device '", device, "' and op '",
                         program.OpName(other), "' on device '", OpDevice(program, other),
                         "' share buffer '", analysis.buffers.buffers[b].name.str(),
                         "', but no memory space of target '", target.name,
                         "' is accessible to both"));
      }
      levels[b] &= mask;
      narrowed_by[b] = op;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<HierarchyCandidate>> HierarchyCandidates(
    const Program& program, const ProgramAnalysis& analysis, const CostModel& cost,
    const Target& target, const MsaOptions& options, Bytes plan_alignment) {
  const BufferSet& buffers = analysis.buffers;
  const std::size_t n = buffers.buffers.size();
  for (const Buffer& b : buffers.buffers) {
    if (b.space && *b.space != kDefaultSpace && *b.space != kAlternateSpace) {
      return absl::InvalidArgumentError(absl::StrCat(
          "error: buffer '", b.name.str(), "' is pinned to memory space ", *b.space,
          "; with a hierarchy target only spaces 0 (default) and 1 (the fastest) can be pinned"));
    }
  }
  const std::vector<HomeFacts> facts = HomeFactsOf(program, analysis, cost, target);
  const int slowest = SlowestWritableSpace(target);
  const int levels = static_cast<int>(target.spaces.size());

  // Step 1: level 0 with the two-space allocator; buffers an op cannot read
  // from level 0 stay in default memory.
  ProgramAnalysis restricted = analysis;
  for (std::size_t b = 0; b < n; ++b) {
    if (!(facts[b].levels & 1) && !restricted.buffers.buffers[b].space) {
      restricted.buffers.buffers[b].space = kDefaultSpace;
    }
  }
  MsaOptions level0 = options;
  // Sliced prefetch is a two-space feature: the hierarchy's levels and
  // their checks move whole buffers.
  level0.sliced_prefetch.max_slices = 0;
  level0.block_prefetch_bytes = 0;  // likewise block prefetching
  level0.auto_block_prefetch = false;
  level0.loop_optimizer = false;    // and the memory-bound loop optimizer
  level0.auto_loop_optimizer = false;
  level0.auto_window_prefetch = false;  // and window prefetch
  for (const LinkSpec& l : target.links) {
    if (!l.max_outstanding) continue;
    std::int64_t& limit =
        l.to == 0 ? level0.max_outstanding_prefetches : level0.max_outstanding_evictions;
    if (l.to == 0 || l.from == 0) {
      limit = limit < 0 ? *l.max_outstanding : std::min(limit, *l.max_outstanding);
    }
  }
  const CostModel restricted_cost(program, restricted, target);
  absl::StatusOr<MsaResult> fast = AssignMemorySpaces(program, restricted, restricted_cost, level0);
  if (!fast.ok()) return fast.status();

  std::vector<HierarchyCandidate> out;
  BufferId failed = kNoId;
  auto add = [&](std::string name, const MsaResult& result, const std::vector<bool>& needs,
                 const HomeRule& rule) {
    Homes homes = ChooseHomes(analysis, target, facts, result, needs, rule, plan_alignment);
    if (homes.failed != kNoId) {
      if (failed == kNoId) failed = homes.failed;
      HierarchyCandidate c;
      c.name = std::move(name);
      c.fits = false;
      const Buffer& b = buffers.buffers[homes.failed];
      c.does_not_fit = absl::StrCat("buffer '", b.name.str(), "' (", b.size,
                                    " bytes) finds no room in a level its ops can access");
      out.push_back(std::move(c));
      return;
    }
    HierarchyCandidate c{std::move(name), result, std::move(homes.home), homes.offset, true, "", ""};
    for (std::size_t i = 0; i < c.fast.copies.size(); ++i) {
      AsyncCopy& copy = c.fast.copies[i];
      (copy.kind == CopyKind::kPrefetch ? copy.from_space : copy.to_space) = c.home[copy.buffer];
      if (const std::optional<StagingChunk>& chunk = homes.staging[i]) {
        copy.via = CopyVia{SpaceIdOfLevel(target, chunk->level), chunk->offset};
      }
    }
    if (c.name == "banked") {
      for (std::size_t b = 0; b < n; ++b) {
        if (!homes.offset[b] || c.home[b] != kAlternateSpace) continue;
        const Buffer& buffer = buffers.buffers[b];
        c.fast.alternate[b] = {Allocation{kAlternateSpace, *homes.offset[b], buffer.start,
                                          buffer.end}};
        c.fast.needs_default[b] = false;
        c.fast.alternate_peak =
            std::max(c.fast.alternate_peak, *homes.offset[b] + buffer.size);
      }
    }
    out.push_back(std::move(c));
  };
  std::vector<int> below;
  for (int l = 1; l < levels; ++l) below.push_back(l);
  // Constants in a read-only level first: only where there is one (else it
  // is the hierarchy candidate again).
  const bool read_only = std::any_of(below.begin(), below.end(), [&](int l) {
    return !target.spaces[static_cast<std::size_t>(l)].writable;
  });
  const bool staged = StagesCopies(target);
  // The candidates built on level-0 result `result`.
  auto add_homed = [&](const MsaResult& result) {
    std::vector<bool> needs(n);
    // A buffer pinned to the default space stays there.
    for (std::size_t b = 0; b < n; ++b) {
      needs[b] = result.needs_default[b] && !buffers.buffers[b].space;
    }
    add("hierarchy", result, needs, HomeRule{below, false, false, false});
    if (read_only) {
      add("hierarchy-weights-in-flash", result, needs, HomeRule{below, true, false, false});
    }
    // The same with staged copies: a level reached only through another is
    // a home too. Separate candidates, as a staged home is not always
    // faster than a lower one with direct links (the simulation decides;
    // ties keep the unstaged plan).
    if (staged) {
      add("hierarchy-staged", result, needs, HomeRule{below, false, false, true});
      if (read_only) {
        add("hierarchy-weights-in-flash-staged", result, needs, HomeRule{below, true, false, true});
      }
    }
    add("two-space", result, needs, HomeRule{{slowest}, false, false, false});
  };
  add_homed(*fast);

  // Banked: no copies, every buffer a home (not run when some buffer is
  // pinned to level 0: the bank order could not honour the pin).
  const auto pinned_fastest =
      std::find_if(buffers.buffers.begin(), buffers.buffers.end(), [](const Buffer& b) {
        return b.space && *b.space == kAlternateSpace;
      });
  if (pinned_fastest != buffers.buffers.end()) {
    HierarchyCandidate c;
    c.name = "banked";
    c.fits = false;
    c.not_run = absl::StrCat("buffer '", pinned_fastest->name.str(),
                             "' is pinned to the fastest level, which filling the banks by "
                             "size without copies cannot honour");
    out.push_back(std::move(c));
  } else {
    MsaResult banked;
    banked.mode = fast->mode;
    banked.alternate.assign(n, {});
    banked.needs_default.assign(n, true);
    std::vector<bool> bank_needs(n);
    for (std::size_t b = 0; b < n; ++b) bank_needs[b] = !buffers.buffers[b].space;
    std::vector<int> all(static_cast<std::size_t>(levels));
    std::iota(all.begin(), all.end(), 0);
    add("banked", banked, bank_needs, HomeRule{all, true, true, false});
  }
  // The twins without the cross-program prefetch: level 0 chose it on its
  // two-space view, where every home reaches it over a direct link; over
  // the hierarchy it may cost more than it saves (its buffer's home needs a
  // direct link, so a weight whose only route is staged finds none).
  if (fast->cross_program_prefetch) {
    MsaOptions plain = level0;
    plain.cross_program_prefetch = false;
    absl::StatusOr<MsaResult> without =
        AssignMemorySpaces(program, restricted, restricted_cost, plain);
    if (!without.ok()) return without.status();
    const std::size_t first_twin = out.size();
    add_homed(*without);
    for (std::size_t i = first_twin; i < out.size(); ++i) {
      out[i].without_cross_program_prefetch = true;
    }
  }
  if (std::none_of(out.begin(), out.end(), [](const HierarchyCandidate& c) { return c.fits; })) {
    const Buffer& b = buffers.buffers[failed];
    // Too large for any of them, or they are full where it is live.
    Bytes largest = 0;
    for (int l = 0; l < levels; ++l) {
      const MemorySpaceSpec& space = target.spaces[static_cast<std::size_t>(l)];
      if ((facts[failed].levels >> l & 1) && (space.writable || facts[failed].constant)) {
        largest = std::max(largest, space.capacity_bytes);
      }
    }
    if (b.size > largest) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "plan does not fit: buffer '", b.name.str(), "' (", b.size,
          " bytes) is larger than every memory space of target '", target.name,
          "' that its ops can access (the largest holds ", largest, " bytes)"));
    }
    return absl::ResourceExhaustedError(absl::StrCat(
        "plan does not fit: buffer '", b.name.str(), "' (", b.size,
        " bytes) fits in no memory space of target '", target.name,
        "' that its ops can access: each is full at some step of its live range"));
  }
  return out;
}

}  // namespace memplan
