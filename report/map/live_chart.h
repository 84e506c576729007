// The live-bytes chart of the HTML memory map (report/map/html.h): one step
// curve per memory space on the map's time axis — the default space's
// transient pools (the curve whose maximum is the max-live lower bound) and
// every buffer of each other space (fast memory) — with the lower bound
// marked and a dashed vertical line at each curve's peak step, labelled with
// its bytes and the op that runs there.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/map/layout.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan::memmap {

// Geometry (pixels) of the chart inside its <svg>: the peak labels' rows
// start at kLiveTop, one row per curve with a peak, and the plot (its height
// kLiveHeight) starts under them, so no label sits on a curve or on the
// lower bound's line.
inline constexpr double kLiveTop = 40;
inline constexpr double kLiveHeight = 130;
inline constexpr double kLiveLabelRow = 14;

// One curve: (start, bytes) points, each holding until the next one's start.
// Exact steps while they fit two per pixel column, else the maximum over
// each column's time range (then `exact` is false).
struct LiveSeries {
  MemorySpace space = kDefaultSpace;
  std::string name;   // "default memory, transient", "alternate memory"
  std::string color;  // "#rrggbb"
  bool exact = true;
  std::vector<LiveStep> points;
  Bytes max = 0;
  std::optional<PeakMark> peak;  // from the exact profile; label placed by the chart
};

struct LiveChart {
  std::vector<LiveSeries> series;  // default space first, then by space id
  // Over every series and the lower bound: NiceAddressAxis(max, 5), so it
  // ends at the first whole step at or above the highest of them (3.83 MiB
  // -> 4 MiB in steps of 1 MiB).
  AddressAxis axis;
  double plot_top = kLiveTop;      // the plot's top edge, under the label rows
  Bytes lower_bound = 0;
  double height = 0;               // of the whole <svg>
};

// The series of the panels of `layout` (one per space shown), their axis and
// peak markers. `describe_step` names the op at a step (may be empty).
LiveChart BuildLiveChart(const MapLayout& layout, const BufferSet& buffers, const Plan& plan,
                         const MapOptions& options);

// The chart as an <svg> element (width layout.width), with a hidden cursor
// line (id "live-cursor") for the page script.
std::string RenderLiveChart(const MapLayout& layout, const LiveChart& chart);

}  // namespace memplan::memmap
