#include "driver/pools.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "driver/fixed_offsets.h"
#include "fmt/format.h"
#include "io/byte_size.h"
#include "ir/plural.h"
#include "packing/exact_member.h"

namespace memplan {
namespace {

// The packer options of a pool plan, with the pool's alignment.
PackOptions PackOptionsFor(const PoolPlanOptions& options, Bytes alignment) {
  return PackOptions{.alignment = alignment,
                     .effort = options.effort,
                     .time_limit_seconds = options.time_limit_seconds,
                     .minimize = options.minimize,
                     .progress = options.search_progress};
}

constexpr std::array<Lifetime, 5> kPoolOrder = {
    Lifetime::kTransient, Lifetime::kStaging, Lifetime::kVariable, Lifetime::kConstant,
    Lifetime::kExternal};

MemorySpace SpaceOf(const Buffer& b) { return b.space.value_or(kDefaultSpace); }

// The time range a buffer's chunk in its home space must be reserved for;
// nullopt when it needs no chunk there.
using ChunkRange = std::optional<std::pair<TimeStep, TimeStep>>;

// The buffers of a pool's packed chunks in order, stored only once they
// are not 0, 1, 2, ... (every buffer of the input is in the pool, as in a
// lifetime CSV: then 4 bytes per buffer are saved where memory peaks).
class PackedIds {
 public:
  void push_back(BufferId id) {
    if (identity_ && id == static_cast<BufferId>(count_)) {
      ++count_;
      return;
    }
    if (identity_) {
      identity_ = false;
      ids_.resize(count_);
      std::iota(ids_.begin(), ids_.end(), 0);
    }
    ids_.push_back(id);
    ++count_;
  }
  BufferId operator[](std::size_t k) const {
    return identity_ ? static_cast<BufferId>(k) : ids_[k];
  }
  std::size_t size() const { return count_; }

 private:
  bool identity_ = true;
  std::size_t count_ = 0;
  std::vector<BufferId> ids_;
};

// Places the timed pools of `lifetime` from `base` on, packed over their time
// ranges (they may share bytes when never alive together); appends them to
// plan.pools and their buffers' sizes and ranges to `live`. Returns the end
// of the highest one (base when there is none).
Bytes PlaceTimedPools(std::vector<TimedPool>& timed, Lifetime lifetime, Bytes base,
                      const PoolPlanOptions& options, Plan& plan, std::vector<PackItem>& live) {
  std::vector<PackItem> items;
  std::vector<std::size_t> which;
  Bytes alignment = plan.alignment;
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const PoolInfo& pool = timed[i].pool;
    if (pool.lifetime != lifetime) continue;
    alignment = std::lcm(alignment, std::max<Bytes>(1, timed[i].alignment));
    items.push_back(PackItem{pool.size, 1, pool.start.value_or(0),
                             pool.end.value_or(plan.time_steps - 1)});
    which.push_back(i);
    live.insert(live.end(), timed[i].live.begin(), timed[i].live.end());
  }
  if (items.empty()) return base;
  const Bytes start = AlignUp(base, alignment);
  const PackResult result = Pack(items, options.algorithm, PackOptionsFor(options, alignment));
  for (std::size_t k = 0; k < which.size(); ++k) {
    PoolInfo& pool = timed[which[k]].pool;
    pool.offset = start + result.offsets[k];
    plan.pools.push_back(pool);
  }
  return start + result.peak;
}

// "300.00 KiB (307200 bytes)"; below 1 KiB just "100 bytes" ("1 byte").
std::string Needs(Bytes bytes) {
  return bytes < 1024 ? CountOf(bytes, "byte")
                      : fmt::format("{} ({} bytes)", FormatBytes(bytes), bytes);
}

// "44.00 KiB (45056 bytes) over --capacity transient=256KiB".
std::string Over(Bytes needed, const CapacityLimit& limit) {
  const Bytes over = needed - limit.bytes;
  const std::string what =
      limit.spelled.empty() ? "its capacity of " + CountOf(limit.bytes, "byte") : limit.spelled;
  return fmt::format("{} over {}", Needs(over), what);
}

// Whether any plan could fit `capacity`, from `bound` (bytes no plan of
// the pools can go below: their lower bounds added up, pools being laid
// out one after another), e.g. "; no plan can fit: every plan needs at
// least the lower bound, 10.00 KiB (10240 bytes)" or "; a plan within it
// may exist: the lower bound, 1000 bytes, 24 bytes under it" ("equals it"
// when it does).
std::string AnyPlanFits(Bytes bound, Bytes capacity) {
  if (bound > capacity) {
    return fmt::format("; no plan can fit: every plan needs at least the lower bound, {}",
                       Needs(bound));
  }
  return fmt::format("; a plan within it may exist: the lower bound, {}, {}", Needs(bound),
                     bound == capacity ? "equals it" : Needs(capacity - bound) + " under it");
}

// What `--algorithm exact` established when the default memory does not
// fit (appended to that failure): a proof that no packing fits, or a search
// stopped at its time limit, each with the best packing found and what is
// proven; "" without a search. `minimize`: the search lowered the peak
// (else it looked only for a packing within the capacity, so the best
// packing found is the one it started from, e.g. the heuristics').
std::string ExactSearchFailure(const Plan& plan, const BufferSet& buffers, bool minimize) {
  if (plan.search_status.empty()) return "";
  // Its proofs read movable buffers as live over their gaps and windows.
  const bool conservative = ExactSearchReadsGapsAsLive(buffers);
  const std::string best = fmt::format(
      "best packing found {}{}", CountOf(plan.peak, "byte"),
      plan.peak <= plan.proven_lower_bound && !conservative ? ", the lowest possible"
      : minimize ? ""
                 : " (the one it started from: at a capacity the search looks only for a "
                   "packing within it; --minimize looks for lower peaks)");
  if (plan.search_status == "infeasible" || plan.search_status == "optimal") {
    return fmt::format(
        "; the exact search proved that no packing fits (every packing needs at least {}{}); {}",
        CountOf(plan.proven_lower_bound, "byte"),
        conservative ? ", reading buffers as live over their dead gaps and windows: its proof "
                       "holds for that reading only"
                     : "",
        best);
  }
  if (plan.search_status == "stopped") {
    return fmt::format(
        "; the exact search stopped at its {}time limit of {} s {}: {}, proven lower bound {}; {}",
        plan.search_default_time_limit ? "default " : "", plan.search_time_limit_seconds,
        minimize ? "before it proved its best peak the lowest"
                 : "without finding a packing that fits or proving that none exists",
        best, CountOf(plan.proven_lower_bound, "byte"),
        plan.search_default_time_limit ? "--time-limit S searches longer" : "raise --time-limit");
  }
  return "";
}

// What `auto`'s exact member established when the default memory does not
// fit `capacity` (appended to that failure): its reason when it found no
// lower peak (a proof that none fits, a budget spent, or why it did not
// search), or that its best packing is still above the capacity; with how
// to decide the capacity fully. "" without an exact member, when the
// transient pool fits and other pools overflow, and when the lower bound
// alone is above the capacity (the failure names both).
std::string AutoExactFailure(const Plan& plan, Bytes capacity) {
  if (!plan.packing) return "";
  const auto& members = plan.packing->members;
  const auto exact = std::find_if(members.begin(), members.end(), [](const PackMemberReport& m) {
    return m.name == kExactMemberName;
  });
  if (exact == members.end()) return "";
  if (!exact->ran && exact->reason.starts_with(kExactMemberCapacityProof)) {
    return "; auto's exact member " + exact->reason;
  }
  // The transient pool fits (other pools make the space overflow), or no
  // packing of it can.
  if (plan.peak <= capacity || plan.lower_bound > capacity) return "";
  // The member's reason says what it did about the capacity (exact_member.cc).
  const std::string what =
      exact->ran ? fmt::format("lowered the peak to {}{}", CountOf(exact->peak, "byte"),
                               exact->reason.empty() ? "" : " but " + exact->reason)
                 : exact->reason;
  return fmt::format(
      "; auto's exact member {}; --algorithm exact --capacity {} decides it (a packing within "
      "it, or a proof that none exists), given the --time-limit S it needs (10 s by default)",
      what, capacity);
}

// AnyPlanFits for a whole space: its pools' lower bounds added up (the
// never-reused pools' bytes, the reusable ones' max live); "" when region
// allocations, which may share bytes over time, are among them.
std::string SpaceAnyPlanFits(const Plan& plan, MemorySpace space, Bytes capacity) {
  Bytes bound = 0;
  for (const PoolInfo& pool : plan.pools) {
    if (pool.space != space) continue;
    if (pool.start) return "";
    bound += pool.lower_bound;
  }
  return AnyPlanFits(bound, capacity);
}

// Records `limit` for the default-space pools of `lifetime` (placed from
// plan.pools[first] on), and checks their extent (lowest offset to highest
// end) against it: the failure text when it is exceeded.
std::optional<std::string> ApplyPoolCapacity(Plan& plan, std::size_t first, Lifetime lifetime,
                                             const CapacityLimit& limit) {
  plan.pool_capacity[lifetime] = limit.bytes;
  std::optional<Bytes> low;
  Bytes high = 0;
  for (std::size_t i = first; i < plan.pools.size(); ++i) {
    PoolInfo& pool = plan.pools[i];
    if (pool.space != kDefaultSpace || pool.lifetime != lifetime) continue;
    low = std::min(low.value_or(pool.offset), pool.offset);
    high = std::max(high, pool.offset + pool.size);
  }
  const Bytes extent = low ? high - *low : 0;
  if (extent <= limit.bytes) return std::nullopt;
  Bytes bound = 0;
  bool timed = false;
  for (std::size_t i = first; i < plan.pools.size(); ++i) {
    const PoolInfo& pool = plan.pools[i];
    if (pool.space != kDefaultSpace || pool.lifetime != lifetime) continue;
    bound += pool.lower_bound;
    timed |= pool.start.has_value();
  }
  return fmt::format("{} pool needs {}, {}{}", LifetimeName(lifetime), Needs(extent),
                     Over(extent, limit), timed ? "" : AnyPlanFits(bound, limit.bytes));
}

// Packs the home-space chunks of every buffer whose home space is in
// `spaces`: pools by (space, lifetime), stacked in kPoolOrder. Every such
// buffer joins its lifetime's pool (counted in `buffers`/`total_bytes`);
// those with a range get an offset. Fills plan.pools, plan.spaces (with the
// default space's capacity), plan.peak/lower_bound/algorithm and the
// placements' pool names; returns the offsets. With `with_gaps` (each range
// being its buffer's own live range) reusable pools are packed and bounded
// with the bytes the buffers hold (HeldPieces): two buffers may share bytes
// when their live sets are disjoint, the lower bound counts a buffer only at
// its live steps and in a window only the window's bytes, and a fixed buffer
// is given to the packers as its held pieces (movable ones stay whole over
// their windows: conservative).
// Timed pools (region allocations) of the default space are placed after
// their lifetime's pool, packed over their time ranges; buffers marked in
// `excluded` (held by timed pools) join no pool here. `ranges` null: each
// buffer's chunk is reserved over its own live range. Writes no placements
// (SetPoolNames names their pools).
//
// At 10^7 buffers this is where a plan's memory peaks, so it keeps per
// buffer only the packed items (40 bytes each), their buffers and the
// offsets: the items for the bound, their owners and shifts are built only
// when they differ from the packed items (gaps, windows, held pieces).
absl::StatusOr<std::vector<CompactOptional<Bytes>>> PackPools(
    const BufferSet& buffers, const std::vector<ChunkRange>* ranges,
    const std::vector<MemorySpace>& spaces, const PoolPlanOptions& options, Plan& plan,
    std::vector<TimedPool>* timed = nullptr, const std::vector<bool>* excluded = nullptr,
    const std::vector<ChunkRange>* bound_ranges = nullptr, bool with_gaps = false) {
  const auto range_of = [&](BufferId id) -> ChunkRange {
    if (ranges != nullptr) return (*ranges)[id];
    return std::make_pair(buffers.buffers[id].start, buffers.buffers[id].end);
  };
  // Made when the first pool is packed, so not beside its items.
  std::vector<CompactOptional<Bytes>> offsets;
  std::vector<MemorySpace> sorted_spaces = spaces;
  std::sort(sorted_spaces.begin(), sorted_spaces.end());
  sorted_spaces.erase(std::unique(sorted_spaces.begin(), sorted_spaces.end()), sorted_spaces.end());

  for (MemorySpace space : sorted_spaces) {
    Bytes base = 0;
    std::vector<std::string> failures;  // limits exceeded, for the error
    for (Lifetime lifetime : kPoolOrder) {
      const std::size_t pools_before = plan.pools.size();
      const auto member = [&](BufferId id) {
        const Buffer& b = buffers.buffers[id];
        return SpaceOf(b) == space && b.lifetime == lifetime && !(excluded && (*excluded)[id]);
      };
      // The pool's buffers: how many, and whether its items are the bound's
      // items (same bytes over the same steps: then a bound the packer
      // proved for them, the exact search's, is a bound of the pool too) and
      // whether a fixed buffer is given as held pieces.
      std::size_t members = 0, chunks = 0;
      bool items_are_bound_items = true, pieces = false;
      for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
        if (!member(id)) continue;
        ++members;
        const Buffer& b = buffers.buffers[id];
        if (!range_of(id) || b.inside()) continue;
        ++chunks;
        if (!b.gaps().empty() || !b.windows().empty() ||
            (!with_gaps && bound_ranges && (*bound_ranges)[id] != range_of(id))) {
          items_are_bound_items = false;
        }
        pieces |= with_gaps && b.fixed_offset() && b.size > 0 &&
                  !(b.gaps().empty() && b.windows().empty());
      }
      const Bytes group_base = base;
      std::vector<PackItem> group_live;  // every buffer of the lifetime's pools, for the bound
      if (members > 0) {
        std::vector<PackItem> items;
        items.reserve(chunks);
        std::vector<PackItem> bound_items;  // live ranges for the lower bound, unless `items`
        PackedIds packed;
        // With held pieces, per item: its buffer's index in `packed`, and
        // where the item lies in the buffer's chunk (a held piece of a fixed
        // buffer starts at byte lo of it); else item i is packed[i]'s whole
        // chunk.
        std::vector<std::size_t> owner;
        std::vector<Bytes> shift;
        const auto owner_of = [&](std::size_t i) { return pieces ? owner[i] : i; };
        const auto shift_of = [&](std::size_t i) { return pieces ? shift[i] : Bytes{0}; };
        Bytes packed_bytes = 0;
        Bytes pool_alignment = plan.alignment;
        PoolInfo pool;
        pool.name = std::string(LifetimeName(lifetime));
        pool.lifetime = lifetime;
        pool.space = space;
        for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
          if (!member(id)) continue;
          const Buffer& b = buffers.buffers[id];
          pool.total_bytes += b.size;
          // A sub-allocation takes its container's bytes (set below).
          const ChunkRange range = range_of(id);
          if (!range || b.inside()) continue;
          if (items_are_bound_items) {
            // The items below are the bound's.
          } else if (with_gaps) {
            // The chunk covers the buffer's own live range: it counts toward
            // the bound by the bytes it holds (dead gaps 0, a window hi - lo).
            AppendHeldBytes(b, bound_items);
          } else {
            const ChunkRange live = bound_ranges ? (*bound_ranges)[id] : range;
            bound_items.push_back(PackItem{b.size, 1, live->first, live->second});
          }
          const std::size_t k = packed.size();
          if (with_gaps && b.fixed_offset() && b.size > 0 &&
              !(b.gaps().empty() && b.windows().empty())) {
            // A fixed buffer's place is known, so the packers get exactly the
            // bytes it holds: one fixed item per held piece (each fixed at the
            // buffer's offset + lo, set below). Movable buffers may then use
            // its bytes in its gaps and outside its windows' bytes.
            for (const HeldPiece& held : HeldPieces(b)) {
              items.push_back(PackItem{held.hi - held.lo, 1, held.steps.first, held.steps.last});
              owner.push_back(k);
              shift.push_back(held.lo);
            }
          } else {
            items.push_back(
                PackItem{b.size, std::max<Bytes>(1, b.alignment), range->first, range->second});
            if (with_gaps && !b.gaps().empty()) items.back().mutable_gaps() = b.gaps();
            if (pieces) {
              owner.push_back(k);
              shift.push_back(0);
            }
          }
          packed.push_back(id);
          packed_bytes += b.size;
          pool_alignment = std::max(pool_alignment, std::max<Bytes>(1, b.alignment));
        }
        pool.offset = AlignUp(base, pool_alignment);
        // Fixed offsets (Buffer::fixed_offset) are absolute in the space; the
        // packers see them relative to the pool.
        for (std::size_t i = 0; i < items.size(); ++i) {
          const Buffer& b = buffers.buffers[packed[owner_of(i)]];
          if (!b.fixed_offset()) continue;
          if (*b.fixed_offset() < pool.offset) {
            return absl::InvalidArgumentError(
                fmt::format("buffer '{}' has the fixed offset {}, below its pool '{}' at {}",
                            b.name, *b.fixed_offset(), pool.name, pool.offset));
          }
          items[i].mutable_fixed_offset() = *b.fixed_offset() - pool.offset + shift_of(i);
        }
        const bool reusable = IsReusable(lifetime);
        const PackingAlgorithm algorithm = reusable ? options.algorithm : PackingAlgorithm::kNaive;
        PackOptions pack_options = PackOptionsFor(options, plan.alignment);
        const bool searched = algorithm == PackingAlgorithm::kExact;
        if ((searched || algorithm == PackingAlgorithm::kAuto) && options.capacity) {
          // The exact search (auto's exact member too) aims at what is left
          // of the default memory; minimizing, it fits that first and then
          // lowers the peak (exact_packer.h).
          pack_options.capacity = std::max<Bytes>(0, *options.capacity - pool.offset);
        }
        PackResult result = Pack(items, algorithm, pack_options);

        pool.size = result.peak;
        offsets.resize(buffers.buffers.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
          const Bytes offset = result.offsets[i] - shift_of(i);
          offsets[packed[owner_of(i)]] = pool.offset + offset;
          // A fixed buffer split into held pieces still spans its whole size.
          if (items[i].fixed_offset()) {
            pool.size = std::max(pool.size, offset + buffers.buffers[packed[owner_of(i)]].size);
          }
        }
        pool.buffers = static_cast<std::int64_t>(members);
        // Without reuse the bound is every byte at once; with reuse, max live,
        // or the packer's proven bound (PackResult::lower_bound) when it is
        // about the same items. (Otherwise that bound is about the packed
        // chunks, which may be wider than the buffers' live ranges.) Pack's
        // bound is at least the items' max live (packer.h), and so is any
        // valid peak: with the items the bound's, the min of the two is it.
        if (!reusable) {
          pool.lower_bound = packed_bytes;
        } else if (items_are_bound_items) {
          pool.lower_bound = std::min(result.lower_bound, pool.size);
        } else {
          pool.lower_bound = MaxLiveBytes(bound_items);
        }
        if (space == kDefaultSpace && lifetime == Lifetime::kTransient) {
          plan.peak = pool.size;
          plan.lower_bound = pool.lower_bound;
          plan.algorithm = result.algorithm;
          plan.packing = result.report;
          if (searched) {
            plan.search_status = std::string(SearchStatusName(result.search_status));
            plan.proven_lower_bound = result.proven_lower_bound;
            plan.search_nodes = result.search_nodes;
            plan.search_time_limit_seconds = result.search_time_limit_seconds;
            plan.search_default_time_limit = result.search_default_time_limit;
          }
        }
        base = pool.offset + pool.size;
        plan.pools.push_back(pool);
        // Only the timed pools' bound needs these (region plans).
        if (timed && space == kDefaultSpace) {
          group_live = items_are_bound_items ? std::move(items) : std::move(bound_items);
          for (PackItem& item : group_live) {
            item.alignment = 1;
            if (item.extras) item.mutable_fixed_offset().reset();
          }
        }
      }
      if (timed && space == kDefaultSpace) {
        base = PlaceTimedPools(*timed, lifetime, base, options, plan, group_live);
        if (lifetime == Lifetime::kTransient && base > group_base) {
          plan.peak = base - group_base;
          plan.lower_bound = MaxLiveBytes(group_live);
        }
      }
      if (space == kDefaultSpace) {
        if (auto limit = options.pool_capacity.find(lifetime); limit != options.pool_capacity.end()) {
          if (std::optional<std::string> failure = ApplyPoolCapacity(
                  plan, pools_before, lifetime, limit->second)) {
            failures.push_back(*failure);
          }
        }
      }
    }

    SpaceInfo info;
    info.name = SpaceName(space);
    info.id = space;
    info.peak = base;
    info.alignment = plan.alignment;
    if (space == kDefaultSpace) info.capacity = options.capacity;
    plan.spaces.push_back(info);
    if (info.capacity && base > *info.capacity) {
      failures.insert(failures.begin(),
                      fmt::format("{} memory needs {}, {} (transient extent {}, lower "
                                  "bound {})",
                                  info.name, Needs(base),
                                  Over(base, CapacityLimit{*info.capacity,
                                                           options.capacity_spelled}),
                                  CountOf(plan.peak, "byte"), CountOf(plan.lower_bound, "byte")) +
                          SpaceAnyPlanFits(plan, space, *info.capacity) +
                          (space == kDefaultSpace
                               ? ExactSearchFailure(plan, buffers, options.minimize) +
                                     AutoExactFailure(plan, *info.capacity)
                               : std::string()));
    }
    if (!failures.empty()) {
      std::string message = "plan does not fit: " + failures.front();
      for (std::size_t i = 1; i < failures.size(); ++i) message += "; " + failures[i];
      return absl::ResourceExhaustedError(message);
    }
  }
  offsets.resize(buffers.buffers.size());
  // Sub-allocations sit at their container's offset plus theirs.
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    if (!b.inside() || !range_of(id) || (excluded && (*excluded)[id])) continue;
    const BufferId c = b.inside()->container;
    if (std::find(spaces.begin(), spaces.end(), SpaceOf(b)) == spaces.end()) continue;
    if (c < 0 || c >= static_cast<BufferId>(buffers.buffers.size()) || !offsets[c] ||
        buffers.buffers[c].inside()) {
      return absl::InvalidArgumentError(fmt::format(
          "buffer '{}' is nested inside a buffer that gets no offset of its own here", b.name));
    }
    offsets[id] = *offsets[c] + b.inside()->offset;
  }
  return offsets;
}

// A plan without placements yet: SetPoolNames makes them once the packing
// is done, so they do not sit beside its items.
Plan EmptyPlan(const BufferSet& buffers, const PoolPlanOptions& options) {
  Plan plan;
  plan.input = buffers.input;
  plan.time_steps = buffers.time_steps;
  plan.alignment = std::max<Bytes>(1, options.alignment);
  plan.algorithm = std::string(PackingAlgorithmName(options.algorithm));
  return plan;
}

// Gives every buffer a placement, named after its pool for those that
// joined one in PackPools (home space in `spaces`, not `excluded`).
void SetPoolNames(const BufferSet& buffers, const std::vector<MemorySpace>& spaces,
                  const std::vector<bool>* excluded, Plan& plan) {
  plan.placements.resize(buffers.buffers.size());
  std::array<PoolName, kPoolOrder.size()> names;  // by lifetime: one interned name each
  for (Lifetime lifetime : kPoolOrder) {
    names[static_cast<std::size_t>(lifetime)] = PoolName(LifetimeName(lifetime));
  }
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    if (std::find(spaces.begin(), spaces.end(), SpaceOf(b)) == spaces.end() ||
        (excluded && (*excluded)[id])) {
      continue;
    }
    plan.placements[id].pool = names[static_cast<std::size_t>(b.lifetime)];
  }
}

// Every home space of `buffers`, the default space always.
std::vector<MemorySpace> HomeSpaces(const BufferSet& buffers, bool skip_alternate) {
  std::vector<MemorySpace> spaces = {kDefaultSpace};
  for (const Buffer& b : buffers.buffers) {
    const MemorySpace s = SpaceOf(b);
    if (skip_alternate && s == kAlternateSpace) continue;
    if (std::find(spaces.begin(), spaces.end(), s) == spaces.end()) spaces.push_back(s);
  }
  std::sort(spaces.begin(), spaces.end());
  return spaces;
}

// When buffer b's data first reaches default memory: its start unless it is
// produced in alternate memory (an alternate segment starts there without a
// prefetch opening it), else its first eviction's start; nullopt if never.
std::optional<TimeStep> FirstDefaultArrival(const Buffer& b,
                                            const std::vector<Allocation>& alternate,
                                            const std::vector<const AsyncCopy*>& copies) {
  const bool produced_in_alternate =
      std::any_of(alternate.begin(), alternate.end(), [&](const Allocation& a) {
        return a.start == b.start &&
               std::none_of(copies.begin(), copies.end(), [&](const AsyncCopy* c) {
                 // A prefetch issued before the first op (-1) opens a segment at 0.
                 return c->kind == CopyKind::kPrefetch &&
                        std::max<TimeStep>(c->start, 0) == a.start;
               });
      });
  if (!produced_in_alternate) return b.start;
  std::optional<TimeStep> first;
  for (const AsyncCopy* c : copies) {
    if (c->kind == CopyKind::kEviction) first = std::min(first.value_or(c->start), c->start);
  }
  return first;
}

}  // namespace

void AppendHeldBytes(const Buffer& b, std::vector<PackItem>& items) {
  for (const HeldPiece& held : HeldPieces(b)) {
    items.push_back(PackItem{held.hi - held.lo, 1, held.steps.first, held.steps.last});
  }
}

absl::StatusOr<Plan> PlanPools(const BufferSet& buffers, const PoolPlanOptions& options) {
  if (absl::Status s = CheckFixedOffsetsDisjoint(buffers); !s.ok()) return s;
  Plan plan = EmptyPlan(buffers, options);
  const std::vector<MemorySpace> spaces = HomeSpaces(buffers, false);
  absl::StatusOr<std::vector<CompactOptional<Bytes>>> offsets =
      PackPools(buffers, /*ranges=*/nullptr, spaces, options, plan, nullptr, nullptr, nullptr,
                /*with_gaps=*/true);
  if (!offsets.ok()) return offsets.status();
  SetPoolNames(buffers, spaces, nullptr, plan);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    plan.placements[id].allocations.push_back(
        Allocation{SpaceOf(b), *(*offsets)[id], b.start, b.end});
  }
  return plan;
}

absl::StatusOr<Plan> PlanPoolsAround(const BufferSet& buffers, const std::vector<bool>& excluded,
                                     const std::vector<bool>& held, std::vector<TimedPool>& timed,
                                     const PoolPlanOptions& options) {
  Plan plan = EmptyPlan(buffers, options);
  std::vector<ChunkRange> live, ranges;
  live.reserve(buffers.buffers.size());
  ranges.reserve(buffers.buffers.size());
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    live.emplace_back(std::make_pair(b.start, b.end));
    ranges.emplace_back(std::make_pair(b.start, held[id] ? buffers.time_steps - 1 : b.end));
  }
  const std::vector<MemorySpace> spaces = HomeSpaces(buffers, false);
  absl::StatusOr<std::vector<CompactOptional<Bytes>>> offsets =
      PackPools(buffers, &ranges, spaces, options, plan, &timed, &excluded, &live);
  if (!offsets.ok()) return offsets.status();
  SetPoolNames(buffers, spaces, &excluded, plan);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    if (excluded[id]) continue;
    const Buffer& b = buffers.buffers[id];
    plan.placements[id].allocations.push_back(
        Allocation{SpaceOf(b), *(*offsets)[id], b.start, b.end});
  }
  return plan;
}

absl::StatusOr<Plan> PlanPoolsWithMsa(const BufferSet& buffers, const MsaResult& msa,
                                      Bytes fast_memory_bytes, Bytes fast_memory_alignment,
                                      const PoolPlanOptions& options) {
  const std::size_t n = buffers.buffers.size();
  static const std::vector<Allocation> kNone;
  auto alternate_of = [&](BufferId id) -> const std::vector<Allocation>& {
    return static_cast<std::size_t>(id) < msa.alternate.size() ? msa.alternate[id] : kNone;
  };

  std::vector<AsyncCopy> copies = msa.copies;
  if (msa.cross_program_prefetch) {
    const BufferId id = msa.cross_program_prefetch->buffer;
    const Buffer& b = buffers.buffers[id];
    for (const Allocation& a : alternate_of(id)) {
      if (a.start != b.start) continue;
      copies.push_back(AsyncCopy{id, CopyKind::kPrefetch, kDefaultSpace, a.space, a.start,
                                 a.start, b.size});
    }
  }
  std::sort(copies.begin(), copies.end(), [](const AsyncCopy& x, const AsyncCopy& y) {
    return std::tie(x.start, x.done, x.buffer, x.kind) < std::tie(y.start, y.done, y.buffer, y.kind);
  });
  std::vector<std::vector<const AsyncCopy*>> copies_of(n);
  for (const AsyncCopy& c : copies) {
    if (c.buffer >= 0 && static_cast<std::size_t>(c.buffer) < n) copies_of[c.buffer].push_back(&c);
  }

  // Default chunks only from when default memory holds the data.
  std::vector<ChunkRange> ranges(n);
  for (BufferId id = 0; id < static_cast<BufferId>(n); ++id) {
    const Buffer& b = buffers.buffers[id];
    // A home level of a memory hierarchy (driver/hierarchy_job.h) holds
    // the default-memory data as the default space does.
    const bool planned = !alternate_of(id).empty() || !copies_of[id].empty();
    if (SpaceOf(b) == kAlternateSpace || (SpaceOf(b) != kDefaultSpace && !planned)) {
      ranges[id] = std::make_pair(b.start, b.end);
    } else if (auto first = FirstDefaultArrival(b, alternate_of(id), copies_of[id])) {
      // An end-of-program refill of a buffer that outlives the run
      // (msa/assignment.h) reads its default copy after its live range.
      TimeStep last = b.end;
      for (const AsyncCopy* c : copies_of[id]) {
        if (c->kind == CopyKind::kPrefetch) last = std::max(last, c->done);
      }
      ranges[id] = std::make_pair(*first, last);
    }
  }

  Plan plan = EmptyPlan(buffers, options);
  const std::vector<MemorySpace> spaces = HomeSpaces(buffers, true);
  absl::StatusOr<std::vector<CompactOptional<Bytes>>> offsets =
      PackPools(buffers, &ranges, spaces, options, plan);
  if (!offsets.ok()) return offsets.status();
  SetPoolNames(buffers, spaces, nullptr, plan);

  PoolInfo pinned;
  pinned.name = "alternate";
  pinned.space = kAlternateSpace;
  std::vector<PackItem> pinned_items;
  Bytes alternate_peak = 0;
  for (BufferId id = 0; id < static_cast<BufferId>(n); ++id) {
    const Buffer& b = buffers.buffers[id];
    AllocationList& allocations = plan.placements[id].allocations;
    if (SpaceOf(b) != kAlternateSpace && ranges[id]) {
      allocations.push_back(
          Allocation{SpaceOf(b), *(*offsets)[id], ranges[id]->first, ranges[id]->second});
    }
    for (const Allocation& a : alternate_of(id)) {
      allocations.push_back(a);
      alternate_peak = std::max(alternate_peak, a.offset + b.size);
    }
    std::sort(allocations.begin(), allocations.end(), [](const Allocation& x, const Allocation& y) {
      return std::tie(x.start, x.space) < std::tie(y.start, y.space);
    });
    if (SpaceOf(b) == kAlternateSpace) {
      if (alternate_of(id).empty()) {
        return absl::InternalError(fmt::format(
            "internal error: buffer '{}' is pinned to alternate memory but was not placed there",
            b.name));
      }
      plan.placements[id].pool = pinned.name;
      ++pinned.buffers;
      pinned.total_bytes += b.size;
      for (const Allocation& a : alternate_of(id)) {
        pinned.size = std::max(pinned.size, a.offset + b.size);
        pinned_items.push_back(PackItem{b.size, 1, a.start, a.end});
      }
    }
  }
  if (pinned.buffers > 0) {
    pinned.lower_bound = MaxLiveBytes(pinned_items);
    plan.pools.push_back(pinned);
  }
  SpaceInfo alternate;
  alternate.name = SpaceName(kAlternateSpace);
  alternate.id = kAlternateSpace;
  alternate.capacity = fast_memory_bytes;
  alternate.alignment = std::max<Bytes>(1, fast_memory_alignment);
  alternate.peak = alternate_peak;
  plan.spaces.push_back(alternate);
  std::sort(plan.spaces.begin(), plan.spaces.end(),
            [](const SpaceInfo& x, const SpaceInfo& y) { return x.id < y.id; });
  plan.copies = std::move(copies);
  return plan;
}

}  // namespace memplan
