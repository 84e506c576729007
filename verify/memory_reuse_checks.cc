// Rule 4 of verify/region_checks.h, last part: resources that share bytes
// are ordered in happens-before (one is released before the other is
// allocated). Time ranges cannot tell: regions that neither awaits the other
// may run at once whatever their program order.
//
// Byte-sharing pairs come from a sweep over the resources sorted by offset,
// keeping those that still extend past the current offset: O(R log R + P)
// for P pairs, O(R^2) when many allocations reuse one address range.
#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

class ReuseChecker {
 public:
  ReuseChecker(const RegionContext& ctx, const HappensBefore& hb,
               const std::vector<std::size_t>& alloca, const std::vector<std::size_t>& dealloca)
      : ctx_(ctx), hb_(hb), alloca_(alloca), dealloca_(dealloca) {}

  absl::Status Run() const {
    std::vector<std::int32_t> order;
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(ctx_.regions.resources.size()); ++i) {
      if (ctx_.regions.resources[i].size_bytes > 0) order.push_back(i);  // empty: no bytes
    }
    // Bytes are shared only within a memory space.
    std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
      return std::tuple(Space(a), Begin(a), a) < std::tuple(Space(b), Begin(b), b);
    });
    std::vector<std::int32_t> active;  // earlier by offset, in that order
    for (std::int32_t next : order) {
      std::erase_if(active, [&](std::int32_t a) {
        return Space(a) != Space(next) || End(a) <= Begin(next);
      });
      for (std::int32_t earlier : active) {
        if (absl::Status s = CheckPair(std::min(earlier, next), std::max(earlier, next)); !s.ok()) {
          return s;
        }
      }
      active.push_back(next);
    }
    return absl::OkStatus();
  }

 private:
  MemorySpace Space(std::int32_t r) const { return ctx_.regions.resources[r].space; }
  Bytes Begin(std::int32_t r) const { return ctx_.plan.pools[ctx_.pool_of[r]].offset; }
  Bytes End(std::int32_t r) const { return Begin(r) + ctx_.regions.resources[r].size_bytes; }
  const std::string& Name(std::int32_t r) const { return ctx_.regions.resources[r].name; }

  // Whether `first` can be released before `second` is allocated.
  bool CanOrder(std::int32_t first, std::int32_t second) const {
    return dealloca_[first] != kNone && alloca_[second] != kNone;
  }

  // `a` < `b`; their bytes intersect.
  absl::Status CheckPair(std::int32_t a, std::int32_t b) const {
    if (CanOrder(a, b) && hb_.Precedes(dealloca_[a], alloca_[b])) return absl::OkStatus();
    if (CanOrder(b, a) && hb_.Precedes(dealloca_[b], alloca_[a])) return absl::OkStatus();
    const std::string head =
        absl::StrCat(Name(a), " (bytes ", ByteRange(Begin(a), End(a)), ") and ", Name(b),
                     " (bytes ", ByteRange(Begin(b), End(b)), ") share bytes ",
                     ByteRange(std::max(Begin(a), Begin(b)), std::min(End(a), End(b))),
                     " but neither is released before the other is allocated: ");
    return RuleViolation(4, head + Why(a, b));
  }

  // Why no order holds: the order whose release comes before the allocation
  // in step order (at most one can, as each alloca precedes its dealloca),
  // else the one releasing `a` first; or the steps missing for any order.
  std::string Why(std::int32_t a, std::int32_t b) const {
    std::vector<std::pair<std::int32_t, std::int32_t>> orders;  // (released, allocated)
    if (CanOrder(a, b)) orders.emplace_back(a, b);
    if (CanOrder(b, a)) orders.emplace_back(b, a);
    if (!orders.empty()) {
      auto [first, second] = orders.front();
      for (const auto& [x, y] : orders) {
        if (dealloca_[x] < alloca_[y]) std::tie(first, second) = std::pair(x, y);
      }
      return absl::StrCat(StepRef(ctx_, alloca_[second]), " does not wait for ",
                          StepRef(ctx_, dealloca_[first]));
    }
    for (std::int32_t r : {a, b}) {
      if (alloca_[r] == kNone && dealloca_[r] == kNone) {
        return Name(r) + " has no alloca or dealloca step";
      }
    }
    // Each has exactly one of the two steps, and the same kind: a with only a
    // dealloca and b with only an alloca (or the reverse) could be ordered.
    return dealloca_[a] == kNone ? "neither has a dealloca step" : "neither has an alloca step";
  }

  const RegionContext& ctx_;
  const HappensBefore& hb_;
  const std::vector<std::size_t>& alloca_;
  const std::vector<std::size_t>& dealloca_;
};

}  // namespace

absl::Status CheckMemoryReuse(const RegionContext& ctx, const HappensBefore& hb,
                              const std::vector<std::size_t>& alloca,
                              const std::vector<std::size_t>& dealloca) {
  return ReuseChecker(ctx, hb, alloca, dealloca).Run();
}

}  // namespace memplan::region_verify
