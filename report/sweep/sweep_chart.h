// `memplan sweep --svg FILE`: the sweep as an SVG line chart, one panel per
// swept axis:
//  * symbolic dims (when the grid has more than one binding): the
//    transient extent (default-memory activations) and its lower bound (dashed) against the
//    first dim's values, one pair of lines per binding of the other dims and
//    fast-memory size;
//  * fast memory (when more than one size): the estimated time per
//    size, one line per dims binding (with one binding, also the time bound
//    of msa/time_bound.h and the run times with everything in default
//    memory and everything in fast memory, dashed).
// With a single point the dims panel is drawn with one point. The x axes are
// categorical (the points in grid order, evenly spaced, labelled with their
// values); a point over capacity leaves a gap in its line and a "does not
// fit" label whose <title> names the point and the bytes it needs (e.g.
// "does not fit: --fast-memory 0 B: default memory needs 991.54 KiB (1015336
// bytes), 41.54 KiB (42536 bytes) over --capacity 950KiB ..."). Every marker
// has a <title> with its exact value. Pure and deterministic.
#pragma once

#include <string>
#include <vector>

#include "report/sweep/sweep_row.h"

namespace memplan {

// A standalone SVG document (XML declaration, SVG namespace) for `rows` of
// `input`, 760 px wide and 330 px per panel.
std::string RenderSweepChart(const std::string& input, const std::vector<SweepRow>& rows);

}  // namespace memplan
