// Two memory maps side by side on one scale: with --reorder, the input
// order's plan beside the reordered one (docs/reorder.md), each titled with
// its transient extent, so the saving shows as the difference in height.
#pragma once

#include <string>
#include <string_view>

#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "report/map/layout.h"

namespace memplan {

// One of the two maps: a plan over its buffers (placements parallel to
// buffers.buffers), drawn with `options` (its title names the order).
struct MapSide {
  const BufferSet* buffers = nullptr;
  const Plan* plan = nullptr;
  MapOptions options;
};

// `side` with every panel's address axis (and, for the activations view,
// its own) raised to the highest that either side's map would have, so
// both are drawn on one scale (MapOptions::min_address_top).
MapSide OnCommonScale(const MapSide& side, const MapSide& other);

// One standalone SVG document: `left` and `right` (each as RenderSvgMap
// draws it, on a common scale) next to each other, top-aligned, 24 px apart.
// Deterministic; never fails.
std::string RenderSvgMapPair(const MapSide& left, const MapSide& right);

// One HTML page titled `title`: `left` and `right` (each the page
// RenderHtmlMap writes, on a common scale, interactive as it is) in two
// frames side by side (stacked on windows narrower than both), embedded
// with srcdoc: the file stays self-contained. Deterministic; never fails.
std::string RenderHtmlMapPair(const MapSide& left, const MapSide& right, std::string_view title);

}  // namespace memplan
