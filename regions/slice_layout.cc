#include "regions/slice_layout.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace memplan {
namespace {

SizeExpr Padded(const LayoutItem& item, const LayoutOptions& options) {
  return SizeExpr::AlignUp(item.size, options.range_alignment);
}

bool LiveTogether(const LayoutItem& a, const LayoutItem& b) {
  return a.start <= b.end && b.start <= a.end;
}

// align(max over items of offset + padded size, RA).
SizeExpr Total(const std::vector<LayoutItem>& items, const std::vector<SizeExpr>& offsets,
               const LayoutOptions& options) {
  SizeExpr top;
  for (std::size_t i = 0; i < items.size(); ++i) {
    top = SizeExpr::MaxWithin(top, offsets[i] + Padded(items[i], options), options.box);
  }
  return SizeExpr::AlignUp(top, options.range_alignment);
}

}  // namespace

Bytes PlanningBytes(const LayoutItem& item, const LayoutOptions& options) {
  return Padded(item, options).Evaluate(options.planning_point).value_or(0);
}

LayoutResult StackLayout(const std::vector<LayoutItem>& items, const LayoutOptions& options) {
  LayoutResult result;
  result.algorithm = "stack";
  SizeExpr end;
  for (const LayoutItem& item : items) {
    result.offsets.push_back(SizeExpr::AlignUp(end, options.offset_alignment));
    end = result.offsets.back() + Padded(item, options);
  }
  result.total = SizeExpr::AlignUp(end, options.range_alignment);
  return result;
}

LayoutResult InOrderLayout(const std::vector<LayoutItem>& items, const LayoutOptions& options) {
  LayoutResult result;
  result.algorithm = "in-order";
  result.offsets.resize(items.size());

  // Static slices: best fit in definition order.
  std::vector<std::size_t> statics, dynamics;
  std::vector<PackItem> pack_items;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const SizeExpr padded = Padded(items[i], options);
    if (!padded.IsConstant()) {
      dynamics.push_back(i);
      continue;
    }
    statics.push_back(i);
    pack_items.push_back(PackItem{*padded.ConstantValue(), 1, items[i].start, items[i].end});
  }
  const PackResult packed = Pack(pack_items, PackingAlgorithm::kInOrder, options.offset_alignment);
  for (std::size_t k = 0; k < statics.size(); ++k) {
    result.offsets[statics[k]] = SizeExpr::Constant(packed.offsets[k]);
  }
  SizeExpr offset = SizeExpr::Constant(AlignUp(packed.peak, options.range_alignment));

  // Dynamic slices: buckets of equal size expressions in first-appearance
  // order; inside a bucket, first fit into a bin of disjoint lifetimes.
  std::vector<std::vector<std::size_t>> buckets;
  for (std::size_t i : dynamics) {
    auto it = std::find_if(buckets.begin(), buckets.end(), [&](const std::vector<std::size_t>& b) {
      return items[b.front()].size == items[i].size;
    });
    if (it == buckets.end()) {
      buckets.push_back({i});
    } else {
      it->push_back(i);
    }
  }
  for (const std::vector<std::size_t>& bucket : buckets) {
    std::vector<std::pair<SizeExpr, std::vector<std::size_t>>> bins;
    for (std::size_t i : bucket) {
      auto bin = std::find_if(bins.begin(), bins.end(), [&](const auto& b) {
        return std::none_of(b.second.begin(), b.second.end(),
                            [&](std::size_t j) { return LiveTogether(items[i], items[j]); });
      });
      if (bin == bins.end()) {
        bins.push_back({offset, {}});
        bin = std::prev(bins.end());
        offset = SizeExpr::AlignUp(offset + Padded(items[i], options), options.offset_alignment);
      }
      bin->second.push_back(i);
      result.offsets[i] = bin->first;
    }
  }
  result.total = SizeExpr::AlignUp(offset, options.range_alignment);
  return result;
}

LayoutResult OrientedLayout(const std::vector<LayoutItem>& items,
                            const std::vector<Bytes>& planning_offsets,
                            const LayoutOptions& options, std::string algorithm) {
  LayoutResult result;
  result.algorithm = std::move(algorithm);
  const std::size_t n = items.size();
  const bool all_static = std::all_of(items.begin(), items.end(), [&](const LayoutItem& item) {
    return Padded(item, options).IsConstant();
  });
  if (all_static) {
    for (Bytes offset : planning_offsets) result.offsets.push_back(SizeExpr::Constant(offset));
    result.total = Total(items, result.offsets, options);
    return result;
  }
  // Longest path in increasing planning offset: everything below an item
  // and live with it is placed before it.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(planning_offsets[a], a) < std::pair(planning_offsets[b], b);
  });
  result.offsets.assign(n, SizeExpr());
  std::vector<std::size_t> placed;  // in placement order
  for (std::size_t i : order) {
    SizeExpr below;
    for (std::size_t j : placed) {
      if (!LiveTogether(items[i], items[j])) continue;
      below = SizeExpr::MaxWithin(below, result.offsets[j] + Padded(items[j], options), options.box);
    }
    result.offsets[i] = SizeExpr::AlignUp(below, options.offset_alignment);
    placed.push_back(i);
  }
  result.total = Total(items, result.offsets, options);
  return result;
}

LayoutResult PackedLayout(const std::vector<LayoutItem>& items, PackingAlgorithm algorithm,
                          const LayoutOptions& options) {
  std::vector<PackItem> pack_items;
  pack_items.reserve(items.size());
  for (const LayoutItem& item : items) {
    pack_items.push_back(PackItem{PlanningBytes(item, options), 1, item.start, item.end});
  }
  PackOptions pack_options;
  pack_options.alignment = options.offset_alignment;
  pack_options.time_limit_seconds = options.time_limit_seconds;
  PackResult packed = Pack(pack_items, algorithm, pack_options);
  LayoutResult layout = OrientedLayout(items, packed.offsets, options, std::move(packed.algorithm));
  layout.search_stopped = packed.search_status == SearchStatus::kStopped;
  layout.search_time_limit_seconds = packed.search_time_limit_seconds;
  layout.search_default_time_limit = packed.search_default_time_limit;
  return layout;
}

}  // namespace memplan
