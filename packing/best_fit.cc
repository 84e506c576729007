#include "packing/best_fit.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <span>
#include <tuple>

#include "packing/chunk_finder.h"
#include "packing/fixed_items.h"
#include "packing/live_profile.h"
#include "packing/member_cost.h"
#include "packing/pack_support.h"
#include "packing/presorted_interval_tree.h"

namespace memplan {
namespace {

TimeStep Length(const PackItem& item) { return EndOf(item) - item.start; }

template <typename Key>
std::vector<std::int32_t> SortByKey(std::size_t n, Key key) {
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return key(a) < key(b); });
  return order;
}

}  // namespace

std::string_view BestFitOrderName(BestFitOrder order) {
  switch (order) {
    case BestFitOrder::kSpatial:
      return "best-fit-spatial";
    case BestFitOrder::kTemporal:
      return "best-fit-temporal";
    case BestFitOrder::kStartTime:
      return "best-fit-start-time";
    case BestFitOrder::kBusiest:
      return "best-fit-busiest";
  }
  return "best-fit";
}

std::vector<std::int32_t> SortForBestFit(const std::vector<PackItem>& items, BestFitOrder order) {
  // Keys are tuples compared lexicographically; negated fields sort descending.
  switch (order) {
    case BestFitOrder::kSpatial:
      return SortByKey(items.size(), [&](std::int32_t i) {
        return std::make_tuple(-items[i].size, -Length(items[i]), i);
      });
    case BestFitOrder::kTemporal:
      return SortByKey(items.size(), [&](std::int32_t i) {
        return std::make_tuple(-Length(items[i]), -items[i].size, i);
      });
    case BestFitOrder::kStartTime:
      return SortByKey(items.size(), [&](std::int32_t i) {
        return std::make_tuple(items[i].start, -items[i].size, -Length(items[i]), i);
      });
    case BestFitOrder::kBusiest: {
      const std::vector<Bytes> busiest = MaxLiveDuring(items);
      return SortByKey(items.size(), [&](std::int32_t i) {
        return std::make_tuple(-busiest[i], -items[i].size, -Length(items[i]), i);
      });
    }
  }
  return {};
}

std::vector<Bytes> BestFitInOrder(const std::vector<PackItem>& items,
                                  const std::vector<std::int32_t>& order, Bytes alignment) {
  double work = 0;
  return *BestFitInOrderWithin(items, order, alignment, std::numeric_limits<double>::infinity(),
                               &work);
}

std::optional<std::vector<Bytes>> BestFitInOrderWithin(const std::vector<PackItem>& items,
                                                       const std::vector<std::int32_t>& order,
                                                       Bytes alignment, double work_limit,
                                                       double* work,
                                                       const PackDeadline& deadline) {
  DeadlinePoll poll(deadline);
  std::vector<Bytes> offsets = InitialOffsets(items);
  // One slot per live piece: an item is placed against, and then blocks,
  // only the chunks live when it is (its dead gaps stay free).
  const LivePieceSlots slots = LivePieces(items);
  PresortedIntervalTree placed(slots.ranges);
  SeedFixedItems(items, slots, placed);  // fixed items are walls from the start
  ChunkFinder finder;
  Bytes top = 0;  // the highest placed item's top so far
  for (std::int32_t i : order) {
    const PackItem& item = items[i];
    if (IsEmpty(item) || item.fixed_offset()) continue;
    const std::int32_t first = slots.first[i];
    const std::int32_t last = slots.first[i + 1];
    offsets[i] = finder.FindBestFitPieces(
        placed, std::span(slots.ranges).subspan(first, last - first), item.size,
        EffectiveAlignment(item, alignment));
    top = std::max(top, offsets[i] + item.size);
    *work += PlacementWork(finder.last_visits(), items.size());
    const bool passed = poll.Passed(top);
    if (*work > work_limit || passed) return std::nullopt;
    for (std::int32_t slot = first; slot < last; ++slot) placed.Insert(slot, offsets[i], item.size);
  }
  return offsets;
}

PackResult BestFitPack(const std::vector<PackItem>& items, BestFitOrder order, Bytes alignment) {
  return MakePackResult(items, BestFitInOrder(items, SortForBestFit(items, order), alignment),
                        std::string(BestFitOrderName(order)));
}

}  // namespace memplan
