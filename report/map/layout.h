// Geometry of the memory-map picture, shared by the SVG and HTML exporters
// (report/map/svg.h, report/map/html.h), so both draw exactly the same map.
//
// The picture has one panel per memory space the plan uses: the default
// space always, and every other space where a buffer has an allocation or an
// async copy lands. In a panel, time runs along x (logical time steps of the
// flattened schedule, one column per step: a segment live over the closed
// range [start, end] spans x(start)..x(end + 1)) and the address along y
// (bytes, 0 at the bottom). Every allocation segment is one rectangle
// [offset, offset + size) x [start, end], colored by its buffer's pool (a
// buffer of the pool "alternate", pinned to fast memory, by its lifetime). The
// default panel carries the transient pool's peak (solid line) and lower
// bound (dashed); other panels their peak and, when it is in range, their
// capacity (dotted). Pools of a space appear as faint bands at their pool
// offset; a pool with a time range (an allocation of an execution region)
// only over that range, outlined and labelled with its name, and its
// buffers are colored by the allocation's kind (slab, results, upload).
// Async copies are drawn in the panel of the non-default space they touch:
// as a translucent bar over the chunk they fill (prefetch) or drain
// (eviction) from copy-start to copy-done, and again in a lane under the
// panel, one row per overlapping copy, so concurrency is visible.
// A window prefetch reserves a chunk of its space without a segment of its
// buffer: it is drawn hatched and outlined over [offset, offset + bytes) from
// copy-start to the op's step. The block of block prefetching is outlined
// (dashed) across the whole alternate panel and labelled "prefetch block".
// A staged copy's chunk in its intermediate level (AsyncCopy::via) is drawn
// like a prefetch's bar, outlined dashed, over its StagingSteps.
//
// Scaling: a segment or copy thinner than MapOptions::min_rect_px in either
// dimension, and every one beyond the MapOptions::max_rects largest of its
// panel, is merged into pixel coverage (report/map/coverage.h) instead of being
// drawn one by one, so a picture of 10^5 buffers stays a few MB. Zero-size
// segments occupy no memory and are not drawn.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/map/coverage.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// Options shared by RenderSvgMap and RenderHtmlMap.
struct MapOptions {
  std::string title;                 // heading; empty: derived from the plan's input
  const Program* program = nullptr;  // when set, tooltips list each buffer's value names
  std::size_t max_rects = 10000;     // per panel: segments (and copies) drawn one by one
  double min_rect_px = 0.5;          // thinner marks (pixels, either side) merge into coverage
  int width_px = 1200;               // picture width in pixels (at least 480)
  int panel_height_px = 320;         // plot height of each panel in pixels (at least 80)
  // Only the pools that hold activations (memmap::IsActivationLifetime:
  // transient and staging); weights, state and model inputs/outputs hidden,
  // and each panel's address axis fitted to what is left.
  bool activations_only = false;
  // Per panel, how many of the largest blocks get their buffer's name
  // written inside them (report/map/labels.h); 0: none.
  std::size_t block_labels = 8;
  // The op that runs at a time step (e.g. "%y = onnx.Conv"), for the peak
  // marker's label; unset or empty: the label names only the step.
  std::function<std::string(TimeStep)> describe_step;
  // Every panel's address axis reaches at least this many bytes (the
  // activations view: min_activations_top), so that two maps drawn side by
  // side share one scale (report/map/side_by_side.h); 0: fitted to the plan.
  Bytes min_address_top = 0;
  Bytes min_activations_top = 0;
};

namespace memmap {

// Fixed palette: one color per lifetime pool, one for other pool names, two
// for async copies. Index = color id used by every mark.
enum ColorId : int {
  kColorTransient = 0,
  kColorConstant,
  kColorExternal,
  kColorVariable,
  kColorStaging,
  kColorOtherPool,
  kColorPrefetch,
  kColorEviction,
  // Buffers in the allocations of execution regions, by allocation kind.
  kColorSlab,
  kColorResults,
  kColorUpload,
  kColorCount,
};
// The colors of maps without execution regions (whose style lists no others).
inline constexpr int kColorCountWithoutRegions = kColorSlab;

// Color of a pool by name: the five lifetime names have their own colors,
// anything else is kColorOtherPool.
int PoolColor(std::string_view pool);
// Color of a pool of `plan`: a region allocation (a resource of
// plan.regions) by its kind, kColorSlab, kColorResults or kColorUpload; a
// hierarchy level's pool "<level>.<lifetime>" (e.g. "sram.transient") like
// its lifetime's; anything else PoolColor(pool).
int PoolColor(const Plan& plan, std::string_view pool);
// The region resource named `pool` (a program pool has one of kind "pool"
// too), or null.
const Resource* FindResource(const Plan& plan, std::string_view pool);
// A pool's name as tooltips show it: for a region allocation with what it is,
// "stage.slab (slab of region @stage on gpu0)"; else the name.
std::string PoolLabel(const Plan& plan, std::string_view pool);
// "#rrggbb" for a color id.
std::string_view ColorHex(int color);
// Legend text for a color id ("transient", ..., "other pool", "prefetch",
// "eviction", "slab", "results", "upload").
std::string_view ColorLabel(int color);

// Display name of a memory space: its SpaceInfo name, else "default",
// "alternate" or "space N".
std::string SpaceName(const Plan& plan, MemorySpace space);

// The pool a buffer belongs to: its placement's pool, else its lifetime name.
std::string PoolOf(const BufferSet& buffers, const Plan& plan, BufferId buffer);

// A "nice" axis over [0, max_bytes]: a binary unit (B, KiB, MiB, GiB, TiB;
// the largest not above max_bytes), a step of 1, 2 or 5 times a power of ten
// in that unit (at least 1 B), the smallest such step giving at most
// `max_steps` steps, and the top rounded up to a whole step.
// Examples (max_steps 8): 2 MiB -> unit MiB, step 0.5 MiB, top 2 MiB;
// 1.2 MiB -> step 0.2 MiB, top 1.2 MiB; 0 -> unit B, step 1 B, top 1 B.
struct AddressAxis {
  Bytes unit = 1;
  double step = 1;  // bytes
  double top = 1;   // bytes, a multiple of step, >= max_bytes
};
AddressAxis NiceAddressAxis(double max_bytes, int max_steps);

// A tick: pixel position along its axis and its label.
struct Tick {
  double pos = 0;
  std::string label;
};

// Ticks of `axis` for a plot whose bottom edge is at pixel `bottom` and
// height `height` (address grows upwards).
std::vector<Tick> AddressTicks(const AddressAxis& axis, double bottom, double height);

// Elides the middle of `text` with "…" so that it has at most `max_chars`
// characters, the ellipsis counting as one (text counted in bytes; a cut never
// splits a UTF-8 sequence). Text that fits is returned as it is.
// Example: ElideMiddle("abcdefghij", 7) -> "abc…hij".
std::string ElideMiddle(std::string_view text, std::size_t max_chars);

// Height of one copy-lane row in pixels (bar plus a 1-pixel gap).
inline constexpr double kLaneRowPitch = 8;

// One allocation segment drawn as a rectangle.
struct SegmentMark {
  BufferId buffer = kNoId;
  int allocation = 0;  // index into the placement's allocations
  int color = 0;
  Box box;
};

// One async copy drawn as a bar (over its chunk, or in the copy lane).
struct CopyMark {
  int copy = 0;  // index into Plan::copies
  int color = 0;
  Box box;
};

// A horizontal reference line across a panel, with its label anchored at
// its right end (label_x) on baseline label_y.
struct LineMark {
  enum class Style { kSolid, kDashed, kDotted };
  Style style = Style::kSolid;
  double y = 0;
  std::string label;
  double label_x = 0;
  double label_y = 0;
};

// A pool's address range in its space, drawn as a faint band.
struct BandMark {
  std::string pool;
  int color = 0;
  Box box;
  bool labeled = false;  // room for the label inside the band
  bool resident = false;  // a pool laid out once and never reused
  // "transient pool"; a pool laid out once and never reused says so, e.g.
  // "constant pool · 137 buffers, 13.26 MiB · resident for the whole run".
  std::string label;
  double label_x = 0;    // baseline start (report/map/labels.h)
  double label_y = 0;
};

// The name of one of the largest blocks, written inside it
// (report/map/labels.h).
struct BlockLabel {
  BufferId buffer = kNoId;
  double x = 0;          // baseline start
  double y = 0;
  std::string text;      // the buffer's name, maybe elided in the middle
};

// The time step at which a panel's live bytes peak (the transient pool's in
// the default space, every buffer's in other spaces; see
// report/map/live_series.h): a vertical line through the middle of the
// step's column, labelled inside the plot near its top.
struct PeakMark {
  TimeStep step = 0;
  Bytes bytes = 0;
  double x = 0;            // line position (pixels)
  std::string label;       // "peak 5.74 MiB at step 52: %y = onnx.Conv", maybe elided
  std::string full_label;  // the same, never elided (for a tooltip)
  double label_x = 0;      // anchor of the label
  double label_y = 0;      // baseline
  bool label_end = false;  // true: the label ends at label_x (left of the line)
};

// One allocation as the page script hit-tests it: the buffer's allocation
// `allocation` at `offset` over the steps [start, end] (the whole run for a
// pool that is never reused).
struct HoverSegment {
  BufferId buffer = kNoId;
  int allocation = 0;
  Bytes offset = 0;
  TimeStep start = 0;
  TimeStep end = 0;
};

// A region allocation (a pool with a time range, ir/plan.h): its address
// range over its time range, drawn as an outlined box behind and around its
// buffers, with its name inside at the top left when it fits.
struct OutlineMark {
  int pool = 0;          // index into Plan::pools
  int color = 0;
  Box box;
  bool labeled = false;
  double label_x = 0;    // baseline start of the name
  double label_y = 0;
};

// A window prefetch's chunk (Plan::window_prefetches): [offset, offset +
// bytes) of its space, reserved over [max(start, 0), done]; drawn hatched and
// outlined, since it holds no segment of its buffer.
struct WindowMark {
  int window = 0;  // index into Plan::window_prefetches
  Box box;
};

// The block reserved for block prefetching (MsaStats::block) across the
// whole run, outlined and labelled "prefetch block" at its top left (else
// bottom left) where the peak step's line and label leave room, when it is
// at least a label high. Shown, like windows, in the activations view too.
struct BlockMark {
  Box box;
  bool labeled = false;
  double label_x = 0;
  double label_y = 0;
};

// A region's copy of a captured value (RegionCopy, ir/region_plan.h): the
// copy's bytes in its fast slab over [copy step, last read], drawn like an
// async copy's bar and named "<value> (copy)" inside when it fits.
struct RegionCopyMark {
  int region = 0;  // index into RegionPlan::regions
  int copy = 0;    // index into RegionInfo::copies
  Box box;
  std::string label;
  bool labeled = false;
  double label_x = 0;  // baseline start
  double label_y = 0;
};

struct Panel {
  MemorySpace space = kDefaultSpace;
  std::string title;                    // e.g. "default memory (space 0) · used 1.5 MiB"
  Box plot;                             // the plotting area
  AddressAxis axis;
  std::vector<Tick> address_ticks;
  double time_label_y = 0;              // baseline of the time tick labels
  std::vector<BandMark> bands;          // pools that exist for the whole run
  std::vector<OutlineMark> outlines;    // pools with a time range
  std::vector<PixelRect> coverage;      // merged segments, relative to plot.x/plot.y
  std::vector<SegmentMark> segments;    // drawn one by one, in (buffer, allocation) order
  std::vector<BlockLabel> block_labels; // names of the largest segments, by area
  std::vector<PixelRect> copy_coverage; // merged copy bars, relative to plot.x/plot.y
  std::vector<CopyMark> copies;         // copy bars over their chunks
  std::vector<WindowMark> windows;      // the largest max_rects, by window index
  std::vector<CopyMark> staged;         // chunks of copies staged through the space
  std::vector<RegionCopyMark> region_copies;  // region copies landing in this space
  std::optional<BlockMark> prefetch_block;
  std::vector<LineMark> lines;
  std::optional<PeakMark> peak;         // none when nothing is live in this view
  std::vector<HoverSegment> hover;      // every allocation shown, by (buffer, allocation)
  std::size_t segment_count = 0;        // non-empty segments in this space
  std::size_t copy_count = 0;           // copies shown in this panel
  // Copy lane (lane.h == 0 when the panel has no copies).
  Box lane;
  int lane_rows = 0;
  std::vector<CopyMark> lane_bars;
  std::vector<PixelRect> lane_coverage; // relative to lane.x/lane.y
  std::vector<std::pair<int, int>> lane_slots;  // (copy index, lane row), by copy index
  double bottom = 0;                    // lowest pixel the panel uses
};

struct MapLayout {
  double width = 0;
  double height = 0;
  std::string title;
  std::string subtitle;                 // algorithm, counts, peak, lower bound
  TimeStep time_top = 1;                // x axis spans [0, time_top)
  double plot_x = 0;                    // left edge of every plot
  double plot_w = 0;                    // width of every plot
  std::vector<Tick> time_ticks;         // positions in pixels
  double title_y = 0;                   // baselines of the header rows
  double subtitle_y = 0;
  double legend_y = 0;
  std::vector<int> legend_colors;       // colors present, in palette order
  bool legend_peak = false;             // which line styles appear
  bool legend_lower_bound = false;
  bool legend_capacity = false;
  bool legend_outline = false;          // region allocations are drawn
  bool legend_peak_step = false;        // a panel marks its peak step
  bool legend_window = false;           // window prefetches are drawn
  bool legend_block = false;            // a prefetch block is drawn
  bool legend_staged = false;           // staged chunks are drawn
  bool regions = false;                 // the plan has execution regions
  bool activations_only = false;
  // Per panel, how many of the largest blocks get their buffer's name
  // written inside them (report/map/labels.h); 0: none.
  std::size_t block_labels = 8;        // MapOptions::activations_only
  std::size_t hidden_buffers = 0;       // buffers left out by activations_only
  std::vector<Panel> panels;            // by ascending space id
};

// Lays out the map of `plan` over `buffers` (placements parallel to
// buffers.buffers; extra entries on either side are ignored). A buffer of a
// pool laid out once and never reused (constant, variable, external) is
// drawn over the whole time axis in its pool's space: its bytes are reserved
// for the whole run, whatever its live range. Never fails:
// empty plans give an empty default panel; malformed segments (end < start)
// are skipped and marks are clipped to their plot.
MapLayout LayoutMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options);

// Pixel x of the left edge of time step `t`.
double TimeX(const MapLayout& layout, double t);

// Live bytes of the default-memory transient pool over time: `bytes` is the
// sum of the sizes of transient buffers (those of the pool "transient" and of
// the region allocations of transient lifetime, the pools with a time range)
// live during [start, next step's start); the last step lasts to the end. A
// buffer counts over the hull of its default-memory segments (the range its
// chunk there is reserved; not at all when it lives only in other spaces), or
// over its live range when it has no placement, minus its dead gaps
// (Buffer::gaps; they are not drawn either). The maximum is the plan's max-live lower bound.
// Example: buffers [0,1] 4 B and [1,2] 8 B -> {0: 4}, {1: 12}, {2: 8}, {3: 0}.
struct LiveStep {
  TimeStep start = 0;
  Bytes bytes = 0;
  bool operator==(const LiveStep&) const = default;
};
std::vector<LiveStep> TransientLiveProfile(const BufferSet& buffers, const Plan& plan);

// The step function of live bytes from `events` (time step, +size when a
// buffer becomes live, -size when it stops), in any order: starts at {0, 0},
// one step per time where the total changes. O(n log n) for n events.
// Example: {(0, 4), (1, 8), (2, -4), (3, -8)} -> {0: 4}, {1: 12}, {2: 8}, {3: 0}.
std::vector<LiveStep> LiveStepsOf(std::vector<std::pair<TimeStep, Bytes>> events);

}  // namespace memmap
}  // namespace memplan
