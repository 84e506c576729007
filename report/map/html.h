// Interactive HTML memory map of a plan: a summary header (input, algorithm,
// transient extent, lower bound, % over the bound, spaces, pools, memory space
// assignment statistics), the same map as report/map/svg.h inlined as SVG
// (each panel's peak step marked), and under it the live-bytes chart
// (report/map/live_chart.h: one curve per memory space, the default space's
// transient pools and each other space, with the lower bound and the peak
// steps marked) on the same time axis. When the plan has pools that are
// never reused (weights, state, model inputs/outputs), a check box (id
// "act") switches to a second map of the activations only (MapOptions::
// activations_only), its address axis fitted to them; the URL fragment
// "#activations" turns it on. Hovering a segment shows its buffer's name,
// values, size, live range, pool (for a region allocation also its kind,
// region and device), space and offset (and highlights it); hovering a copy
// shows the copy; hovering anywhere moves a time cursor across map and
// chart. With execution regions the pool table has a time column. The
// figures scale with the window, up to 1.25x the layout width and down to
// 640 pixels (then they scroll in their own box, not the page).
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
