// Interactive HTML memory map of a plan: a summary header (input, algorithm,
// transient peak, lower bound, % over the bound, spaces, pools, memory space
// assignment statistics), the same map as report/map/svg.h inlined as SVG, and
// under it the transient pool's live bytes over time (the curve whose maximum
// is the max-live lower bound) on the same time axis, with the lower bound
// marked. Hovering a segment shows its buffer's name, values, size, live
// range, pool (for a region allocation also its kind, region and device),
// space and offset (and highlights it); hovering a copy shows the copy;
// hovering anywhere moves a time cursor across map and curve. With execution
// regions the pool table has a time column.
//
// The page is one self-contained file: inline CSS and JavaScript, no fonts,
// images or scripts fetched, no URLs. Buffer data for hovering is embedded as
// JSON in a <script type="application/json"> element with <, >, & escaped, so
// hostile names cannot break out of it; tooltips are built with textContent.
// Hit-testing works on the embedded data, so buffers merged into pixel
// coverage (see report/map/layout.h) can be hovered too. Deterministic output.
#pragma once

#include <string>

#include "report/map/layout.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

// The map width `memplan plan --html` lays pages out for (MapOptions::width_px):
// the figures scale with the window, down from at most 1.25x this width.
inline constexpr int kHtmlMapWidthPx = 960;

// The memory map of `plan` (placements parallel to buffers.buffers) as an
// HTML document. Never fails; an empty plan gives an empty map and curve.
std::string RenderHtmlMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options);

}  // namespace memplan
