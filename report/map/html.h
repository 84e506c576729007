// Interactive HTML memory map of a plan: a summary header (input, algorithm,
// transient extent, lower bound, % over the bound, spaces, pools, memory space
// assignment statistics), the same map as report/map/svg.h inlined as SVG
// (each panel's peak step marked), and under it the live-bytes chart
// (report/map/live_chart.h: one curve per memory space, the default space's
// transient pools and each other space, with the lower bound and the peak
// steps marked) on the same time axis. When the plan has pools that are
// never reused (weights, state, model inputs/outputs), a check box (id
// "act") switches to a second map of the activations only (MapOptions::
// activations_only), its address axis fitted to them. That view is shown
// first; unchecking the box, or the URL fragment "#all", shows everything. Hovering a segment shows its buffer's name,
// values, size, live range, pool (for a region allocation also its kind,
// region and device), space and offset (and highlights it); hovering a copy
// shows the copy; hovering anywhere moves a time cursor across map and
// chart. With execution regions the pool table has a time column. The
// figures scale with the window, up to kHtmlMaxScale times the layout width
// and down to the layout width, so no text is drawn under its nominal size
// (11 px; a narrower window scrolls the figure in its own box, not the
// page).
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
// what an 800-pixel window leaves beside the page margins and a scroll bar,
// so the map's text is drawn at full size there; wider windows scale the
// figures up to kHtmlMaxScale times it.
inline constexpr int kHtmlMapWidthPx = 740;
inline constexpr double kHtmlMaxScale = 1.4;

// The memory map of `plan` (placements parallel to buffers.buffers) as an
// HTML document. Never fails; an empty plan gives an empty map and curve.
std::string RenderHtmlMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options);

}  // namespace memplan
