#include "msa/hierarchy.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
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
};

// Home levels for the buffers with `needs_home` and their best-fit offsets
// there, or the first buffer that fits nowhere.
struct Homes {
  std::vector<MemorySpace> home;
  std::vector<std::optional<Bytes>> offset;
  BufferId failed = kNoId;
};

Homes ChooseHomes(const ProgramAnalysis& analysis, const Target& target,
                  const std::vector<HomeFacts>& facts, const MsaResult& fast,
                  const std::vector<bool>& needs_home, const HomeRule& rule,
                  Bytes plan_alignment) {
  const BufferSet& buffers = analysis.buffers;
  const std::size_t n = buffers.buffers.size();
  Homes out;
  out.home.assign(n, kDefaultSpace);
  out.offset.assign(n, std::nullopt);
  std::vector<bool> prefetched(n, false), evicted(n, false);
  for (const AsyncCopy& c : fast.copies) {
    std::vector<bool>& copied = c.kind == CopyKind::kPrefetch ? prefetched : evicted;
    copied[static_cast<std::size_t>(c.buffer)] = true;
  }
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
      if (l != 0 && prefetched[b] && !FindLink(target, l, 0)) continue;
      if (l != 0 && evicted[b] && !FindLink(target, 0, l)) continue;
      const std::optional<Bytes> offset = heaps[static_cast<std::size_t>(l)].BestFit(
          buffer.start, end, buffer.size);
      if (!offset) continue;
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
    for (AsyncCopy& copy : c.fast.copies) {
      (copy.kind == CopyKind::kPrefetch ? copy.from_space : copy.to_space) = c.home[copy.buffer];
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
  std::vector<bool> needs(n);
  // A buffer pinned to the default space stays there.
  for (std::size_t b = 0; b < n; ++b) {
    needs[b] = fast->needs_default[b] && !buffers.buffers[b].space;
  }
  std::vector<int> below;
  for (int l = 1; l < levels; ++l) below.push_back(l);
  add("hierarchy", *fast, needs, HomeRule{below, false, false});
  // Constants in a read-only level first: only where there is one (else it
  // is the hierarchy candidate again).
  if (std::any_of(below.begin(), below.end(), [&](int l) {
        return !target.spaces[static_cast<std::size_t>(l)].writable;
      })) {
    add("hierarchy-weights-in-flash", *fast, needs, HomeRule{below, true, false});
  }
  add("two-space", *fast, needs, HomeRule{{slowest}, false, false});

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
    add("banked", banked, bank_needs, HomeRule{all, true, true});
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
