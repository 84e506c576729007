// SVG memory map of a plan: one panel per memory space, time on x, address
// on y, one rectangle per allocation segment colored by pool, peak and
// lower-bound lines, async copies in the fast-memory panel. What is drawn
// and how large inputs are merged is described in report/map/layout.h.
//
// The output is a standalone SVG 1.1 document: inline CSS, the generic
// sans-serif font, no scripts, no external references. It is deterministic
// (fixed two-decimal coordinates, no locale) and every name is escaped.
// Each segment drawn one by one is a <rect data-b="BUFFER_ID"> with a <title>
// tooltip (buffer name, values, size, live range, pool, space, offset); each
// region allocation a <rect class="alloc" data-p="POOL_INDEX"> outline with a
// <title> (allocation, region, size, time range, buffers, offset); each window
// prefetch's chunk a hatched <rect class="win" data-w="WINDOW_INDEX"> with a
// <title> ("window of BUFFER for OP", bytes, operand, offset, steps), the
// prefetch block a dashed <rect class="pblock"> with a <title>. Each
// panel's peak step is a <g class="peak-marker" data-step="STEP"> holding a
// dashed vertical line and its label (full text in the <title>).
#pragma once

#include <string>
#include <string_view>

#include "report/map/layout.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

// The memory map of `plan` (placements parallel to buffers.buffers) as an
// SVG document. Never fails; see LayoutMap for how malformed parts are drawn.
std::string RenderSvgMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options);

namespace memmap {

// The <svg> element for `layout`. Standalone: with the SVG namespace, the
// title rows and a <title> tooltip per drawn mark. Embedded (for HTML, which
// supplies its own header and scripted tooltips): no namespace attribute, the
// title rows cropped away, and a hidden highlight rect (id "PREFIX-hl") and
// time cursor line (id "PREFIX-cursor", PREFIX = `id_prefix`) for the page
// script to move, so that two maps can share a page.
std::string RenderSvgElement(const MapLayout& layout, const BufferSet& buffers, const Plan& plan,
                             const MapOptions& options, bool standalone,
                             std::string_view id_prefix = "map");

}  // namespace memmap
}  // namespace memplan
