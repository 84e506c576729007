#include "report/map/layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/map/format.h"
#include "report/map/labels.h"
#include "ir/plural.h"
#include "report/map/live_series.h"

namespace memplan::memmap {
namespace {

// Fixed geometry (pixels). Integer plot origins keep coverage cells on pixels.
constexpr double kMarginLeft = 88;
constexpr double kMarginRight = 28;
constexpr double kTitleY = 28;
constexpr double kSubtitleY = 48;
constexpr double kLegendY = 72;
constexpr double kFirstPanelTop = 90;
constexpr double kPanelTitleHeight = 24;   // panel title row above the plot
constexpr double kTickLabelBelow = 16;     // time tick baseline below the plot
constexpr double kLaneBelow = 36;          // copy lane top below the plot
constexpr int kMaxLaneRows = 16;
constexpr double kPanelGap = 26;
constexpr double kBottomMargin = 16;
constexpr double kLabelHeight = 12;
constexpr double kPeakLineClearance = 6;   // from the peak step's line to a line label

struct Palette {
  std::string_view hex;
  std::string_view label;
};
// Tableau-10 hues: distinct, legible on white, reasonably colorblind-safe.
constexpr std::array<Palette, kColorCount> kPalette = {{
    {"#4e79a7", "transient"},
    {"#9c755f", "constant"},
    {"#59a14f", "external"},
    {"#b07aa1", "variable"},
    {"#edc948", "staging"},
    {"#bab0ac", "other pool"},
    {"#f28e2b", "prefetch"},
    {"#e15759", "eviction"},
    {"#499894", "slab"},
    {"#d37295", "results"},
    {"#b6992d", "upload"},
}};

TimeStep SaturatingNext(TimeStep t) {
  return t < std::numeric_limits<TimeStep>::max() ? t + 1 : t;
}

// Smallest 1, 2 or 5 times a power of ten that is >= x (x > 0).
double NiceCeil(double x) {
  if (!(x > 0)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(x)));
  const double mantissa = x / power;
  constexpr double kSlack = 1e-9;  // absorbs rounding in x / power
  if (mantissa <= 1 + kSlack) return power;
  if (mantissa <= 2 + kSlack) return 2 * power;
  if (mantissa <= 5 + kSlack) return 5 * power;
  return 10 * power;
}

const SpaceInfo* FindSpace(const Plan& plan, MemorySpace space) {
  for (const SpaceInfo& info : plan.spaces) {
    if (info.id == space) return &info;
  }
  return nullptr;
}

// The panel an async copy is drawn in: the non-default side of the copy.
MemorySpace CopyPanelSpace(const AsyncCopy& copy) {
  return copy.to_space != kDefaultSpace ? copy.to_space : copy.from_space;
}

// A segment to draw, before the panel axis is known.
struct Segment {
  BufferId buffer;
  int allocation;
  MemorySpace space;
  int color;
  Bytes offset;
  Bytes size;
  TimeStep start;
  TimeStep end;
  bool whole_run;  // a buffer of a never-reused pool: drawn over the whole axis
};

// Marks with a box and a color, split between one-by-one drawing and coverage.
template <typename Mark>
std::vector<Mark> SplitByBudget(std::vector<Mark> marks, const MapOptions& options,
                                const Box& origin, CoverageGrid& grid) {
  const double min_px = options.min_rect_px;
  std::vector<std::size_t> big;
  for (std::size_t i = 0; i < marks.size(); ++i) {
    if (marks[i].box.w >= min_px && marks[i].box.h >= min_px) big.push_back(i);
  }
  std::vector<bool> drawn(marks.size(), false);
  if (big.size() > options.max_rects) {
    // Keep the largest marks; stable on ties so the choice is deterministic.
    std::stable_sort(big.begin(), big.end(), [&](std::size_t a, std::size_t b) {
      return marks[a].box.w * marks[a].box.h > marks[b].box.w * marks[b].box.h;
    });
    big.resize(options.max_rects);
  }
  for (std::size_t i : big) drawn[i] = true;
  std::vector<Mark> kept;
  kept.reserve(big.size());
  for (std::size_t i = 0; i < marks.size(); ++i) {
    if (drawn[i]) {
      kept.push_back(std::move(marks[i]));
    } else {
      const Box& b = marks[i].box;
      grid.Add({b.x - origin.x, b.y - origin.y, b.w, b.h}, marks[i].color);
    }
  }
  return kept;
}

// The outlines at least min_rect_px wide and high, at most max_rects of them
// (the largest; stable on ties), in their original order.
std::vector<OutlineMark> KeepLargestOutlines(std::vector<OutlineMark> outlines,
                                             const MapOptions& options) {
  std::erase_if(outlines, [&](const OutlineMark& o) {
    return o.box.w < options.min_rect_px || o.box.h < options.min_rect_px;
  });
  if (outlines.size() <= options.max_rects) return outlines;
  std::stable_sort(outlines.begin(), outlines.end(),
                   [](const OutlineMark& a, const OutlineMark& b) {
                     return a.box.w * a.box.h > b.box.w * b.box.h;
                   });
  outlines.resize(options.max_rects);
  std::stable_sort(outlines.begin(), outlines.end(),
                   [](const OutlineMark& a, const OutlineMark& b) { return a.pool < b.pool; });
  return outlines;
}

// Names a region allocation inside its box: at the top left, else at the
// bottom left when a line label is in the way there; unlabelled when the name
// does not fit or both places meet a line label (text widths are estimates).
void PlaceOutlineLabel(const std::string& name, const std::vector<LineMark>& lines,
                       OutlineMark& outline) {
  const Box& box = outline.box;
  const double width = static_cast<double>(name.size()) * kMapCharWidth;
  outline.labeled = false;
  if (box.h < 14 || box.w < width + 8) return;
  const auto clear = [&](double baseline) {
    for (const LineMark& line : lines) {
      const double line_width = static_cast<double>(line.label.size()) * kMapCharWidth;
      const bool vertical =
          baseline - 10 < line.label_y + 2 && line.label_y - kLabelHeight < baseline + 2;
      const bool horizontal =
          box.x + 4 < line.label_x && line.label_x - line_width < box.x + 4 + width;
      if (vertical && horizontal) return false;
    }
    return true;
  };
  outline.label_x = box.x + 4;
  for (double baseline : {box.y + 11, box.y + box.h - 4}) {
    if (clear(baseline)) {
      outline.label_y = baseline;
      outline.labeled = true;
      return;
    }
  }
}

// Names the prefetch block at its top left, else its bottom left, where the
// peak step's line and label are not; unlabelled when neither is clear or
// the block is under a label high (text widths are estimates).
void PlaceBlockLabel(const std::optional<PeakMark>& peak, BlockMark& block) {
  constexpr double kWidth = 14 * kMapCharWidth;  // "prefetch block"
  block.label_x = block.box.x + 4;
  const auto clear = [&](double baseline) {
    if (!peak) return true;
    if (peak->x > block.label_x - 4 && peak->x < block.label_x + kWidth + 4) return false;
    const double width = static_cast<double>(peak->label.size()) * kMapCharWidth;
    const double left = peak->label_end ? peak->label_x - width : peak->label_x;
    return std::abs(peak->label_y - baseline) >= kLabelHeight ||
           left >= block.label_x + kWidth + 4 || left + width <= block.label_x - 4;
  };
  block.labeled = false;
  if (block.box.h < 14) return;
  for (double baseline : {block.box.y + 11, block.box.y + block.box.h - 4}) {
    if (clear(baseline)) {
      block.label_y = baseline;
      block.labeled = true;
      return;
    }
  }
}

// Clips the pixel rectangle [x0, x1) x [y0, y1) to `area`; false when empty.
bool ClipBox(double x0, double x1, double y0, double y1, const Box& area, Box& out) {
  x0 = std::max(x0, area.x);
  x1 = std::min(x1, area.x + area.w);
  y0 = std::max(y0, area.y);
  y1 = std::min(y1, area.y + area.h);
  if (!(x1 > x0) || !(y1 >= y0)) return false;
  out = {x0, y0, x1 - x0, y1 - y0};
  return true;
}

// Places line labels right-aligned above their lines (below when that would
// leave the plot or meet an earlier label), stacked under an earlier label
// they still meet while the plot has room, and otherwise shifted left past
// any label they still overlap. A label that the peak step's vertical line
// at `peak_x` would cross ends left of that line instead (when it fits
// there): a peak step near the right edge would strike through it.
void PlaceLineLabels(const Box& plot, std::optional<double> peak_x,
                     std::vector<LineMark>& lines) {
  std::stable_sort(lines.begin(), lines.end(),
                   [](const LineMark& a, const LineMark& b) { return a.y < b.y; });
  for (std::size_t i = 0; i < lines.size(); ++i) {
    LineMark& line = lines[i];
    line.label_x = plot.x + plot.w - 6;
    const double above = line.y - 4;
    const double below = line.y + kLabelHeight;
    // The lowest baseline among earlier labels within a label height of
    // `label_y`, if any.
    const auto clash = [&](double label_y) -> std::optional<double> {
      std::optional<double> lowest;
      for (std::size_t k = 0; k < i; ++k) {
        if (std::abs(lines[k].label_y - label_y) < kLabelHeight) {
          lowest = std::max(lowest.value_or(lines[k].label_y), lines[k].label_y);
        }
      }
      return lowest;
    };
    // Above the line unless that leaves the plot or meets a label placed before.
    line.label_y = above - kLabelHeight + 2 < plot.y || clash(above) ? below : above;
    // Close lines (e.g. a peak just under the capacity): stack the label
    // under the one it meets, while the plot has room; text widths are only
    // estimated, so stacking is safer than side by side.
    while (std::optional<double> other = clash(line.label_y)) {
      const double stacked = *other + kLabelHeight;
      if (stacked > plot.y + plot.h - 2) break;
      line.label_y = stacked;
    }
    bool moved = true;
    while (moved) {
      moved = false;
      const double width = static_cast<double>(line.label.size()) * kMapCharWidth;
      if (peak_x && line.label_x - width - kPeakLineClearance < *peak_x &&
          *peak_x < line.label_x + kPeakLineClearance &&
          *peak_x - kPeakLineClearance - width >= plot.x) {
        line.label_x = *peak_x - kPeakLineClearance;
        moved = true;
      }
      for (std::size_t k = 0; k < i; ++k) {
        const LineMark& other = lines[k];
        const double other_width = static_cast<double>(other.label.size()) * kMapCharWidth;
        const bool vertical = std::abs(other.label_y - line.label_y) < kLabelHeight;
        const bool horizontal = line.label_x - width < other.label_x &&
                                other.label_x - other_width < line.label_x;
        if (vertical && horizontal) {
          line.label_x = other.label_x - other_width - 14;
          moved = true;
        }
      }
    }
  }
}

// A reference line of a panel, at an address.
struct Line {
  LineMark::Style style;
  Bytes at;
  std::string label;
};

// The default space carries the transient pool's peak and lower bound
// (above the transient pool's base); other spaces their own peak. A capacity
// is added when it is within twice the highest of those, so that it does not
// squash the panel.
std::vector<Line> ReferenceLines(const Plan& plan, MemorySpace space, Bytes space_peak,
                                 const SpaceInfo* info) {
  std::vector<Line> lines;
  if (space == kDefaultSpace) {
    // The plan's figures span its transient pools (ir/plan.h): the program
    // pool "transient" and the region allocations of transient lifetime.
    std::optional<Bytes> lowest;
    for (const PoolInfo& pool : plan.pools) {
      const bool transient =
          pool.start ? pool.lifetime == Lifetime::kTransient : pool.name == "transient";
      if (transient && pool.space == kDefaultSpace) {
        lowest = std::min(lowest.value_or(pool.offset), pool.offset);
      }
    }
    const Bytes base = lowest.value_or(0);
    const auto [extent_text, bound_text] = FormatExtentAndBound(plan.peak, plan.lower_bound);
    if (plan.peak > 0) {
      std::string label = fmt::format("transient extent {}", extent_text);
      if (plan.lower_bound > 0) {
        label += fmt::format(" ({} over bound)", FormatPercentOver(plan.peak, plan.lower_bound));
      }
      lines.push_back({LineMark::Style::kSolid, base + plan.peak, std::move(label)});
    }
    if (plan.lower_bound > 0) {
      lines.push_back({LineMark::Style::kDashed, base + plan.lower_bound,
                       fmt::format("lower bound {}", bound_text)});
    }
  } else if (space_peak > 0) {
    lines.push_back(
        {LineMark::Style::kSolid, space_peak, fmt::format("used {}", FormatBytes(space_peak))});
  }
  Bytes range = space_peak;
  for (const Line& line : lines) range = std::max(range, line.at);
  if (info != nullptr && info->capacity && *info->capacity > 0 &&
      (range == 0 || *info->capacity <= 2 * range)) {
    lines.push_back({LineMark::Style::kDotted, *info->capacity,
                     fmt::format("capacity {}", FormatBytes(*info->capacity))});
  }
  return lines;
}

// The chunk in `space` an async copy fills (copy into `space`) or drains
// (copy out of it): its buffer's segment in `space` whose start (resp. end)
// is nearest to [copy-start, copy-done]. Null when the buffer has none.
const Allocation* CopyChunk(const Plan& plan, std::size_t placed, const AsyncCopy& copy,
                            MemorySpace space) {
  const auto b = static_cast<std::size_t>(copy.buffer);
  if (copy.buffer < 0 || b >= placed) return nullptr;
  const bool fills = copy.to_space == space;
  const Allocation* chunk = nullptr;
  TimeStep best = std::numeric_limits<TimeStep>::max();
  for (const Allocation& a : plan.placements[b].allocations) {
    if (a.space != space || a.end < a.start) continue;
    const TimeStep t = fills ? a.start : a.end;
    const TimeStep distance = t < copy.start ? copy.start - t : t > copy.done ? t - copy.done : 0;
    if (distance < best) best = distance, chunk = &a;
  }
  return chunk;
}

// Lane rows by greedy interval partitioning in start order: a copy takes the
// first row whose last copy is done before it starts (so, up to the row
// limit, rows = most copies in flight at once). Returns (copy, row) by copy
// index and sets `rows`.
std::vector<std::pair<int, int>> AssignLaneRows(const Plan& plan,
                                                std::vector<std::size_t> copies, int& rows) {
  std::sort(copies.begin(), copies.end(), [&](std::size_t a, std::size_t b) {
    const AsyncCopy& x = plan.copies[a];
    const AsyncCopy& y = plan.copies[b];
    return std::tie(x.start, x.done, a) < std::tie(y.start, y.done, b);
  });
  std::vector<TimeStep> row_done;
  std::vector<std::pair<int, int>> slots;
  for (std::size_t c : copies) {
    const AsyncCopy& copy = plan.copies[c];
    std::size_t row = 0;
    while (row < row_done.size() && row_done[row] >= copy.start) ++row;
    if (row == row_done.size()) {
      if (row_done.size() < static_cast<std::size_t>(kMaxLaneRows)) {
        row_done.push_back(copy.done);
      } else {  // full: share the row that frees up first
        row = static_cast<std::size_t>(
            std::min_element(row_done.begin(), row_done.end()) - row_done.begin());
      }
    }
    row_done[row] = std::max(row_done[row], copy.done);
    slots.emplace_back(static_cast<int>(c), static_cast<int>(row));
  }
  std::sort(slots.begin(), slots.end());
  rows = static_cast<int>(row_done.size());
  return slots;
}

// Pixel x of the peak marker's line: the middle of the step's column.
double PeakX(const MapLayout& layout, TimeStep step) {
  return TimeX(layout, static_cast<double>(step) + 0.5);
}

// The peak marker of a panel: a line through the middle of the peak step's
// column, its label on the side with more room (right first) in the first
// row from the plot's top that no line strikes through and where the room
// left by the lines' labels holds at least the step and bytes; the op name
// is then shortened in the middle to fit.
PeakMark PlacePeakMark(const MapLayout& layout, const Box& plot, const ProfilePeak& peak,
                       const MapOptions& options, const std::vector<LineMark>& lines) {
  PeakMark mark;
  mark.step = peak.step;
  mark.bytes = peak.bytes;
  mark.x = PeakX(layout, peak.step);
  const std::string head = fmt::format("peak step {} · {} live", peak.step, FormatBytes(peak.bytes));
  mark.full_label = head;
  const std::string op = options.describe_step ? options.describe_step(peak.step) : std::string();
  if (!op.empty()) mark.full_label += " · " + op;
  const PeakLabelSide side =
      ChoosePeakLabelSide(mark.x, static_cast<double>(mark.full_label.size()) * kMapCharWidth,
                          plot.x, plot.x + plot.w);
  mark.label_end = side.left;
  mark.label_x = mark.label_end ? mark.x - 4 : mark.x + 4;
  // Room for the label at `baseline`, 0 when a line crosses the text.
  const auto room_at = [&](double baseline) {
    double room = side.room;
    for (const LineMark& line : lines) {
      if (line.y > baseline - kLabelHeight && line.y < baseline + 3) return 0.0;
      if (std::abs(line.label_y - baseline) >= kLabelHeight) continue;
      const double right = line.label_x;
      const double left = right - static_cast<double>(line.label.size()) * kMapCharWidth;
      if (mark.label_end) {
        if (left < mark.label_x) room = right < mark.label_x ? std::min(room, mark.label_x - right - 8) : 0;
      } else if (right > mark.label_x) {
        room = left > mark.label_x ? std::min(room, left - 8 - mark.label_x) : 0;
      }
    }
    return std::max(room, 0.0);
  };
  const double needed = static_cast<double>(head.size()) * kMapCharWidth;
  mark.label_y = plot.y + kLabelHeight;
  double room = room_at(mark.label_y);
  for (double row = mark.label_y + kLabelHeight; room < needed && row < plot.y + plot.h;
       row += kLabelHeight) {
    if (const double here = room_at(row); here >= needed) mark.label_y = row, room = here;
  }
  if (room < needed) {  // no row is clear: the top one, over whatever is there
    mark.label_y = plot.y + kLabelHeight;
    room = side.room;
  }
  // Shorten the op name rather than the step and bytes.
  const auto chars = static_cast<std::size_t>(std::max(0.0, room / kMapCharWidth));
  const std::size_t op_chars = chars > head.size() + 3 ? chars - head.size() - 3 : 0;
  if (mark.full_label.size() <= chars || op.empty() || op_chars < 8) {
    mark.label = ElideMiddle(mark.full_label, chars);
  } else {
    mark.label = head + " · " + ElideMiddle(op, op_chars);
  }
  return mark;
}

}  // namespace

std::string ElideMiddle(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  if (max_chars == 0) return std::string();
  const auto continuation = [&](std::size_t i) {
    return i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
  };
  const std::size_t keep = max_chars - 1;
  std::size_t head = keep / 2;
  while (head > 0 && continuation(head)) --head;
  std::size_t tail = text.size() - (keep - keep / 2);
  while (tail < text.size() && continuation(tail)) ++tail;
  return std::string(text.substr(0, head)) + "\u2026" + std::string(text.substr(tail));
}

int PoolColor(std::string_view pool) {
  for (int color = kColorTransient; color <= kColorStaging; ++color) {
    if (kPalette[color].label == pool) return color;
  }
  return kColorOtherPool;
}

const Resource* FindResource(const Plan& plan, std::string_view pool) {
  if (!plan.regions) return nullptr;
  for (const Resource& r : plan.regions->resources) {
    if (r.name == pool) return &r;
  }
  return nullptr;
}

int PoolColor(const Plan& plan, std::string_view pool) {
  if (const Resource* r = FindResource(plan, pool)) {
    switch (r->kind) {
      case ResourceKind::kSlab: return kColorSlab;
      case ResourceKind::kResults: return kColorResults;
      case ResourceKind::kUpload: return kColorUpload;
      case ResourceKind::kPool: break;
    }
  }
  // A hierarchy level's pool, "<level>.<lifetime>" (driver/hierarchy_job.cc),
  // is colored like its lifetime's pool.
  if (const int color = PoolColor(pool); color != kColorOtherPool) return color;
  for (const PoolInfo& info : plan.pools) {
    const std::string_view lifetime = LifetimeName(info.lifetime);
    if (info.name == pool && pool.size() > lifetime.size() + 1 && pool.ends_with(lifetime) &&
        pool[pool.size() - lifetime.size() - 1] == '.') {
      return PoolColor(lifetime);
    }
  }
  return kColorOtherPool;
}

std::string PoolLabel(const Plan& plan, std::string_view pool) {
  const Resource* r = FindResource(plan, pool);
  if (r == nullptr || r->kind == ResourceKind::kPool) return std::string(pool);
  std::string what =
      fmt::format("{} ({} of region @{}", pool, ResourceKindName(r->kind), r->region);
  if (!r->affinity.empty()) what += " on " + r->affinity;
  return what + ")";
}

std::string_view ColorHex(int color) {
  return color >= 0 && color < kColorCount ? kPalette[color].hex : kPalette[kColorOtherPool].hex;
}

std::string_view ColorLabel(int color) {
  return color >= 0 && color < kColorCount ? kPalette[color].label
                                           : kPalette[kColorOtherPool].label;
}

std::string SpaceName(const Plan& plan, MemorySpace space) {
  for (const SpaceInfo& info : plan.spaces) {
    if (info.id == space && !info.name.empty()) return info.name;
  }
  if (space == kDefaultSpace) return "default";
  if (space == kAlternateSpace) return "alternate";
  return fmt::format("space {}", space);
}

std::string PoolOf(const BufferSet& buffers, const Plan& plan, BufferId buffer) {
  const auto index = static_cast<std::size_t>(buffer);
  if (index < plan.placements.size() && !plan.placements[index].pool.empty()) {
    return plan.placements[index].pool;
  }
  if (index < buffers.buffers.size()) {
    return std::string(LifetimeName(buffers.buffers[index].lifetime));
  }
  return "transient";
}

AddressAxis NiceAddressAxis(double max_bytes, int max_steps) {
  AddressAxis axis;
  if (!(max_bytes > 0) || !std::isfinite(max_bytes)) return axis;
  max_steps = std::max(max_steps, 1);
  while (axis.unit < (Bytes{1} << 40) && max_bytes >= static_cast<double>(axis.unit) * 1024) {
    axis.unit *= 1024;
  }
  const double unit = static_cast<double>(axis.unit);
  const double step_in_unit = NiceCeil(max_bytes / unit / max_steps);
  axis.step = std::max(step_in_unit * unit, 1.0);
  axis.top = std::max(1.0, std::ceil(max_bytes / axis.step - 1e-9)) * axis.step;
  return axis;
}

std::vector<Tick> AddressTicks(const AddressAxis& axis, double bottom, double height) {
  std::vector<Tick> ticks;
  const auto steps = static_cast<std::int64_t>(std::llround(axis.top / axis.step));
  for (std::int64_t k = 0; k <= steps; ++k) {
    const double bytes = static_cast<double>(k) * axis.step;
    ticks.push_back({bottom - bytes / axis.top * height, FormatBytesIn(bytes, axis.unit)});
  }
  return ticks;
}

double TimeX(const MapLayout& layout, double t) {
  return layout.plot_x + t / static_cast<double>(layout.time_top) * layout.plot_w;
}

std::vector<LiveStep> TransientLiveProfile(const BufferSet& buffers, const Plan& plan) {
  // Region allocations of transient lifetime count like the transient pool.
  std::set<std::string, std::less<>> transient_pools = {"transient"};
  for (const PoolInfo& pool : plan.pools) {
    if (pool.start && pool.lifetime == Lifetime::kTransient && pool.space == kDefaultSpace) {
      transient_pools.insert(pool.name);
    }
  }
  std::vector<std::pair<TimeStep, Bytes>> events;
  for (std::size_t i = 0; i < buffers.buffers.size(); ++i) {
    const Buffer& buffer = buffers.buffers[i];
    if (buffer.size <= 0) continue;
    if (!transient_pools.contains(PoolOf(buffers, plan, static_cast<BufferId>(i)))) continue;
    TimeStep start = buffer.start;
    TimeStep end = buffer.end;
    if (i < plan.placements.size() && !plan.placements[i].allocations.empty()) {
      // The default-memory chunk is reserved over the hull of its segments.
      start = std::numeric_limits<TimeStep>::max();
      end = std::numeric_limits<TimeStep>::min();
      for (const Allocation& a : plan.placements[i].allocations) {
        if (a.space != kDefaultSpace || a.end < a.start) continue;
        start = std::min(start, a.start);
        end = std::max(end, a.end);
      }
    }
    for (const StepRange& piece : LivePieces(buffer, start, end)) {
      events.emplace_back(piece.first, buffer.size);
      events.emplace_back(SaturatingNext(piece.last), -buffer.size);
    }
  }
  return LiveStepsOf(std::move(events));
}

std::vector<LiveStep> LiveStepsOf(std::vector<std::pair<TimeStep, Bytes>> events) {
  std::sort(events.begin(), events.end());
  std::vector<LiveStep> steps = {{0, 0}};
  Bytes live = 0;
  for (std::size_t i = 0; i < events.size();) {
    const TimeStep t = events[i].first;
    for (; i < events.size() && events[i].first == t; ++i) live += events[i].second;
    if (steps.back().start == t) {
      steps.back().bytes = live;
    } else if (steps.back().bytes != live) {
      steps.push_back({t, live});
    }
  }
  return steps;
}

MapLayout LayoutMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options) {
  MapLayout layout;
  const int width_px = std::max(options.width_px, 480);
  const double plot_h = std::max(options.panel_height_px, 80);
  layout.width = width_px;
  layout.plot_x = kMarginLeft;
  layout.plot_w = width_px - kMarginLeft - kMarginRight;
  layout.title_y = kTitleY;
  layout.subtitle_y = kSubtitleY;
  layout.legend_y = kLegendY;

  // Segments and spaces.
  layout.regions = plan.regions.has_value();
  layout.activations_only = options.activations_only;
  std::set<MemorySpace> spaces = {kDefaultSpace};
  std::vector<Segment> segments;
  std::vector<std::pair<MemorySpace, HoverSegment>> hover;
  std::vector<bool> hover_whole_run;
  const std::size_t placed = std::min(buffers.buffers.size(), plan.placements.size());
  TimeStep time_top = std::max<TimeStep>({1, plan.time_steps, buffers.time_steps});
  const std::vector<bool> activations = ActivationBuffers(buffers, plan);
  // Pools laid out once for the whole run (never reused), by (name, space);
  // and every pool without a time range.
  std::set<std::pair<std::string, MemorySpace>, std::less<>> resident, untimed;
  for (const PoolInfo& pool : plan.pools) {
    if (pool.start) continue;
    untimed.emplace(pool.name, pool.space);
    if (!IsActivationLifetime(pool.lifetime)) resident.emplace(pool.name, pool.space);
  }
  std::vector<bool> hidden(buffers.buffers.size(), false);
  std::int64_t hidden_in_transient = 0;
  std::map<std::string, int> pool_colors;  // a color per pool name, looked up once
  for (std::size_t i = 0; i < placed; ++i) {
    const Buffer& buffer = buffers.buffers[i];
    const std::string pool = PoolOf(buffers, plan, static_cast<BufferId>(i));
    auto [known, added] = pool_colors.emplace(pool, 0);
    if (added) known->second = PoolColor(plan, pool);
    // The pool "alternate" holds buffers pinned to fast memory, of any
    // lifetime (driver/pools.cc): each is colored by its own.
    const int color = known->second == kColorOtherPool && pool == "alternate"
                          ? PoolColor(LifetimeName(buffer.lifetime))
                          : known->second;
    hidden[i] = options.activations_only && !activations[i];
    if (hidden[i] && buffer.size > 0) ++layout.hidden_buffers;
    const AllocationList& allocations = plan.placements[i].allocations;
    bool counted = false;  // in hidden_in_transient
    for (std::size_t j = 0; j < allocations.size(); ++j) {
      const Allocation& a = allocations[j];
      if (a.end < a.start || a.space < 0 || buffer.size <= 0) continue;
      // Hidden buffers still open their panel, so both views show the same panels.
      spaces.insert(a.space);
      time_top = std::max(time_top, SaturatingNext(a.end));
      if (hidden[i]) {
        // A weight or model input/output filed in the default space's
        // transient pool (a hierarchy's fallback layout) counts in the
        // transient extent the panel draws.
        if (a.space == kDefaultSpace && pool == "transient" && !counted) {
          ++hidden_in_transient;
          counted = true;
        }
        continue;
      }
      // A weight, state or model input/output holds its home bytes for
      // the whole run also when a hierarchy's fallback layout files it in a
      // level's transient pool (driver/hierarchy_job.h).
      const std::pair home(pool, a.space);
      const bool whole_run =
          resident.contains(home) || (!IsActivationLifetime(buffer.lifetime) &&
                                      a.space != kAlternateSpace && untimed.contains(home));
      hover.push_back({a.space, {static_cast<BufferId>(i), static_cast<int>(j), a.offset, a.start,
                                 a.end}});
      hover_whole_run.push_back(whole_run);
      // A default-memory chunk holds nothing during the buffer's dead gaps
      // (another buffer may use its bytes then), so those steps are not drawn.
      const std::vector<StepRange> pieces =
          whole_run               ? std::vector<StepRange>{{a.start, a.end}}
          : a.space == kDefaultSpace ? LivePieces(buffer, a.start, a.end)
                                     : std::vector<StepRange>{{a.start, a.end}};
      for (const StepRange& piece : pieces) {
        segments.push_back({static_cast<BufferId>(i), static_cast<int>(j), a.space, color,
                            a.offset, buffer.size, piece.first, piece.last, whole_run});
      }
    }
  }
  const auto shown = [&](BufferId b) {
    const auto index = static_cast<std::size_t>(b);
    return b < 0 || index >= hidden.size() || !hidden[index];
  };
  for (const AsyncCopy& copy : plan.copies) {
    if (copy.done < copy.start || CopyPanelSpace(copy) < 0) continue;
    spaces.insert(CopyPanelSpace(copy));
    if (copy.via) spaces.insert(copy.via->space);
    time_top = std::max(time_top, SaturatingNext(copy.done));
  }
  for (const WindowPrefetch& w : plan.window_prefetches) {
    if (w.done < w.start || w.space < 0) continue;
    spaces.insert(w.space);
    time_top = std::max(time_top, SaturatingNext(w.done));
  }
  // The prefetch block is reserved in the alternate space (msa/block_prefetch.h).
  const bool has_block = plan.msa && plan.msa->block && plan.msa->block->size > 0;
  const PrefetchBlock block = has_block ? *plan.msa->block : PrefetchBlock{};
  if (has_block) spaces.insert(kAlternateSpace);
  // The bytes of a never-reused pool are reserved over the whole run.
  for (Segment& s : segments) {
    if (s.whole_run) s.start = 0, s.end = time_top - 1;
  }
  for (std::size_t k = 0; k < hover.size(); ++k) {
    if (hover_whole_run[k]) hover[k].second.start = 0, hover[k].second.end = time_top - 1;
  }
  layout.time_top = time_top;

  // Time ticks: a 1-2-5 step giving at most one label per ~100 px.
  const double max_time_ticks = std::max(2.0, std::floor(layout.plot_w / 100));
  const auto time_step = static_cast<TimeStep>(
      std::max(1.0, NiceCeil(static_cast<double>(time_top) / max_time_ticks)));
  for (TimeStep t = 0; t <= time_top; t += time_step) {
    layout.time_ticks.push_back({TimeX(layout, static_cast<double>(t)), fmt::format("{}", t)});
    if (t > time_top - time_step) break;  // avoid overflow near the maximum
  }

  std::set<int> colors;
  double top = kFirstPanelTop;
  for (MemorySpace space : spaces) {
    Panel panel;
    panel.space = space;
    panel.plot = {layout.plot_x, top + kPanelTitleHeight, layout.plot_w, plot_h};
    const Box& plot = panel.plot;
    const SpaceInfo* info = FindSpace(plan, space);

    // Address range: everything placed, the space's peak, the reference lines.
    Bytes used_top = 0;
    for (const Segment& s : segments) {
      if (s.space == space) {
        used_top = std::max(used_top, s.offset + s.size);
        ++panel.segment_count;
      }
    }
    // Windows and the prefetch block hold no segment but reserve fast
    // memory, so both views show them (a window of a weight too: it is the
    // only sign of that fast memory in use) and the axis reaches them.
    std::vector<std::size_t> windows;
    Bytes reserved_top = 0;
    for (std::size_t w = 0; w < plan.window_prefetches.size(); ++w) {
      const WindowPrefetch& window = plan.window_prefetches[w];
      if (window.space != space || window.done < window.start || window.bytes <= 0) continue;
      windows.push_back(w);
      reserved_top = std::max(reserved_top, window.offset + window.bytes);
    }
    // Staged chunks, of the buffers shown, reserve bytes here too.
    std::vector<std::size_t> staged;
    for (std::size_t c = 0; c < plan.copies.size(); ++c) {
      const AsyncCopy& copy = plan.copies[c];
      const auto [first, last] = StagingSteps(copy);
      if (!copy.via || copy.via->space != space || copy.bytes <= 0 || last < first ||
          !shown(copy.buffer)) {
        continue;
      }
      staged.push_back(c);
      reserved_top = std::max(reserved_top, copy.via->offset + copy.bytes);
    }
    const bool block_here = has_block && space == kAlternateSpace;
    if (block_here) reserved_top = std::max(reserved_top, block.offset + block.size);
    // The activations view fits the axis to what it shows.
    const Bytes space_peak =
        info != nullptr && !options.activations_only ? std::max(info->peak, used_top) : used_top;
    std::vector<Line> lines = ReferenceLines(plan, space, space_peak, info);
    if (options.activations_only && space == kDefaultSpace && hidden_in_transient > 0) {
      // The extent is the pool's, the hidden buffers' bytes included.
      for (Line& line : lines) {
        if (line.style != LineMark::Style::kSolid) continue;
        line.label += fmt::format(" · counts {} hidden",
                                  CountOf(hidden_in_transient, "weight or model input/output",
                                          "weights and model inputs/outputs"));
      }
    }
    Bytes range = std::max({space_peak, reserved_top,
                            options.activations_only ? options.min_activations_top
                                                     : options.min_address_top});
    for (const Line& line : lines) {
      range = std::max(range, line.at);
      layout.legend_peak |= line.style == LineMark::Style::kSolid;
      layout.legend_lower_bound |= line.style == LineMark::Style::kDashed;
      layout.legend_capacity |= line.style == LineMark::Style::kDotted;
    }
    const int max_steps = static_cast<int>(std::clamp(plot_h / 40, 2.0, 8.0));
    panel.axis = NiceAddressAxis(static_cast<double>(range), max_steps);
    const double bottom = plot.y + plot.h;
    panel.address_ticks = AddressTicks(panel.axis, bottom, plot.h);
    const auto address_y = [&](double bytes) { return bottom - bytes / panel.axis.top * plot.h; };

    panel.title = fmt::format("{} memory (space {})", SpaceName(plan, space), space);
    if (info != nullptr && info->capacity) {
      panel.title += fmt::format(" · capacity {}", FormatBytes(*info->capacity));
    }
    panel.title += options.activations_only
                       ? fmt::format(" · activations only, up to {}", FormatBytes(space_peak))
                       : fmt::format(" · used {}", FormatBytes(space_peak));


    for (Line& line : lines) {
      panel.lines.push_back({line.style, address_y(static_cast<double>(line.at)),
                             std::move(line.label), 0, 0});
    }
    const std::optional<ProfilePeak> peak = PeakOf(
        space == kDefaultSpace ? TransientLiveProfile(buffers, plan)
                               : SpaceLiveProfile(buffers, plan, space, options.activations_only));
    PlaceLineLabels(plot, peak ? std::optional(PeakX(layout, peak->step)) : std::nullopt,
                    panel.lines);

    // Pool bands: across the plot, or over the pool's time range (outlined).
    std::vector<OutlineMark> outlines;
    for (std::size_t p = 0; p < plan.pools.size(); ++p) {
      const PoolInfo& pool = plan.pools[p];
      if (pool.space != space || pool.size <= 0) continue;
      const double y0 = address_y(static_cast<double>(pool.offset + pool.size));
      const double y1 = address_y(static_cast<double>(pool.offset));
      if (pool.start && pool.end) {
        OutlineMark outline{static_cast<int>(p), PoolColor(plan, pool.name), {}, false, 0, 0};
        if (*pool.end < *pool.start ||
            !ClipBox(TimeX(layout, static_cast<double>(*pool.start)),
                     TimeX(layout, static_cast<double>(SaturatingNext(*pool.end))), y0, y1, plot,
                     outline.box)) {
          continue;
        }
        colors.insert(outline.color);
        outlines.push_back(outline);
        continue;
      }
      if (options.activations_only && !IsActivationLifetime(pool.lifetime)) continue;
      BandMark band;
      band.pool = pool.name;
      band.color = PoolColor(plan, pool.name);
      band.label = pool.name + " pool";
      if (!IsActivationLifetime(pool.lifetime)) {
        band.label += fmt::format(" · {}, {} · resident for the whole run",
                                  CountOf(pool.buffers, "buffer"), FormatBytes(pool.total_bytes));
      }
      if (!ClipBox(plot.x, plot.x + plot.w, y0, y1, plot, band.box)) continue;
      colors.insert(band.color);
      panel.bands.push_back(std::move(band));
    }
    panel.outlines = KeepLargestOutlines(std::move(outlines), options);
    layout.legend_outline |= !panel.outlines.empty();
    for (OutlineMark& outline : panel.outlines) {
      PlaceOutlineLabel(plan.pools[static_cast<std::size_t>(outline.pool)].name, panel.lines,
                        outline);
    }
    // Pool names tell pools apart; a never-reused pool always says what it
    // is (placed once the lines and the peak marker are).
    for (BandMark& band : panel.bands) {
      band.resident = resident.contains(std::pair(band.pool, space));
      band.labeled = (band.resident || panel.bands.size() + panel.outlines.size() >= 2) &&
                     band.box.h >= 14;
    }

    // Segments.
    std::vector<SegmentMark> marks;
    for (const Segment& s : segments) {
      if (s.space != space) continue;
      SegmentMark mark{s.buffer, s.allocation, s.color, {}};
      if (!ClipBox(TimeX(layout, static_cast<double>(s.start)),
                   TimeX(layout, static_cast<double>(SaturatingNext(s.end))),
                   address_y(static_cast<double>(s.offset + s.size)),
                   address_y(static_cast<double>(s.offset)), plot, mark.box)) {
        continue;
      }
      colors.insert(s.color);
      marks.push_back(mark);
    }
    CoverageGrid grid(static_cast<int>(plot.w), static_cast<int>(plot.h), kColorCount);
    panel.segments = SplitByBudget(std::move(marks), options, plot, grid);
    panel.coverage = grid.Rects();
    for (const auto& [hover_space, segment] : hover) {
      if (hover_space == space) panel.hover.push_back(segment);
    }
    if (peak) {
      // The peak label keeps off the pools' edges too, as off the lines.
      std::vector<LineMark> edges = panel.lines;
      for (const BandMark& band : panel.bands) {
        for (double y : {band.box.y, band.box.y + band.box.h}) {
          if (y > plot.y && y < plot.y + plot.h) edges.push_back({LineMark::Style::kSolid, y, "", 0, 0});
        }
      }
      panel.peak = PlacePeakMark(layout, plot, *peak, options, edges);
    }
    layout.legend_peak_step |= panel.peak.has_value();
    PlaceBandLabels(panel);
    PlaceBlockLabels(panel, buffers, options.block_labels);

    // Copies over their chunks, and lane rows.
    std::vector<std::size_t> copies;
    for (std::size_t c = 0; c < plan.copies.size(); ++c) {
      const AsyncCopy& copy = plan.copies[c];
      if (copy.done >= copy.start && CopyPanelSpace(copy) == space && shown(copy.buffer)) {
        copies.push_back(c);
      }
    }
    panel.copy_count = copies.size();
    std::vector<CopyMark> chunk_bars;
    for (std::size_t c : copies) {
      const AsyncCopy& copy = plan.copies[c];
      const int color = copy.kind == CopyKind::kPrefetch ? kColorPrefetch : kColorEviction;
      colors.insert(color);
      const Allocation* chunk = CopyChunk(plan, placed, copy, space);
      if (chunk == nullptr) continue;
      CopyMark mark{static_cast<int>(c), color, {}};
      const Bytes size = buffers.buffers[static_cast<std::size_t>(copy.buffer)].size;
      if (size <= 0 ||
          !ClipBox(TimeX(layout, static_cast<double>(copy.start)),
                   TimeX(layout, static_cast<double>(SaturatingNext(copy.done))),
                   address_y(static_cast<double>(chunk->offset + size)),
                   address_y(static_cast<double>(chunk->offset)), plot, mark.box)) {
        continue;
      }
      chunk_bars.push_back(mark);
    }
    CoverageGrid copy_grid(static_cast<int>(plot.w), static_cast<int>(plot.h), kColorCount);
    panel.copies = SplitByBudget(std::move(chunk_bars), options, plot, copy_grid);
    panel.copy_coverage = copy_grid.Rects();

    // Window chunks from copy-start (a copy issued before the first op at
    // step 0) through the op's step; the largest max_rects of them.
    for (std::size_t w : windows) {
      const WindowPrefetch& window = plan.window_prefetches[w];
      WindowMark mark{static_cast<int>(w), {}};
      if (ClipBox(TimeX(layout, static_cast<double>(std::max<TimeStep>(window.start, 0))),
                  TimeX(layout, static_cast<double>(SaturatingNext(window.done))),
                  address_y(static_cast<double>(window.offset + window.bytes)),
                  address_y(static_cast<double>(window.offset)), plot, mark.box)) {
        panel.windows.push_back(mark);
      }
    }
    if (panel.windows.size() > options.max_rects) {
      std::stable_sort(panel.windows.begin(), panel.windows.end(),
                       [](const WindowMark& a, const WindowMark& b) {
                         return a.box.w * a.box.h > b.box.w * b.box.h;
                       });
      panel.windows.resize(options.max_rects);
      std::stable_sort(panel.windows.begin(), panel.windows.end(),
                       [](const WindowMark& a, const WindowMark& b) { return a.window < b.window; });
    }
    layout.legend_window |= !panel.windows.empty();
    for (std::size_t c : staged) {
      const AsyncCopy& copy = plan.copies[c];
      const auto [first, last] = StagingSteps(copy);
      CopyMark mark{static_cast<int>(c), kColorPrefetch, {}};
      if (ClipBox(TimeX(layout, static_cast<double>(first)),
                  TimeX(layout, static_cast<double>(SaturatingNext(last))),
                  address_y(static_cast<double>(copy.via->offset + copy.bytes)),
                  address_y(static_cast<double>(copy.via->offset)), plot, mark.box)) {
        panel.staged.push_back(mark);
      }
    }
    layout.legend_staged |= !panel.staged.empty();
    // Region copies: the copied bytes in their fast slab, where the slab's
    // outline would otherwise look empty over the copy's steps.
    if (plan.regions) {
      const RegionPlan& rp = *plan.regions;
      for (std::size_t r = 0; r < rp.regions.size(); ++r) {
        const std::vector<RegionCopy>& region_copies = rp.regions[r].copies;
        for (std::size_t c = 0; c < region_copies.size(); ++c) {
          const RegionCopy& copy = region_copies[c];
          if (copy.to_space != space || copy.end < copy.start || copy.resource < 0 ||
              static_cast<std::size_t>(copy.resource) >= rp.resources.size()) {
            continue;
          }
          const std::string& slab = rp.resources[static_cast<std::size_t>(copy.resource)].name;
          const auto pool = std::find_if(plan.pools.begin(), plan.pools.end(),
                                         [&](const PoolInfo& p) { return p.name == slab; });
          if (pool == plan.pools.end()) continue;
          const Bytes at = pool->offset + copy.offset_bytes;
          RegionCopyMark mark{static_cast<int>(r), static_cast<int>(c), {}, {}, false, 0, 0};
          if (!ClipBox(TimeX(layout, static_cast<double>(copy.start)),
                       TimeX(layout, static_cast<double>(SaturatingNext(copy.end))),
                       address_y(static_cast<double>(at + copy.bytes)),
                       address_y(static_cast<double>(at)), plot, mark.box)) {
            continue;
          }
          const std::string name =
              options.program != nullptr &&
                      static_cast<std::size_t>(copy.value) < options.program->values.size()
                  ? options.program->values[static_cast<std::size_t>(copy.value)].name
                  : buffers.buffers[static_cast<std::size_t>(copy.buffer)].name.str();
          mark.label = name + " (copy)";
          // Bottom left inside the block, when a line of text fits.
          mark.labeled = mark.box.h >= 14 && mark.box.w >= 40;
          mark.label_x = mark.box.x + 4;
          mark.label_y = mark.box.y + mark.box.h - 4;
          colors.insert(kColorPrefetch);
          panel.region_copies.push_back(std::move(mark));
        }
      }
    }
    if (block_here) {
      BlockMark mark;
      if (ClipBox(plot.x, plot.x + plot.w, address_y(static_cast<double>(block.offset + block.size)),
                  address_y(static_cast<double>(block.offset)), plot, mark.box)) {
        PlaceBlockLabel(panel.peak, mark);
        panel.prefetch_block = mark;
        layout.legend_block = true;
      }
    }

    panel.time_label_y = bottom + kTickLabelBelow;
    panel.bottom = panel.time_label_y + 4;
    if (!copies.empty()) {
      panel.lane_slots = AssignLaneRows(plan, copies, panel.lane_rows);
      panel.lane = {plot.x, bottom + kLaneBelow, plot.w, panel.lane_rows * kLaneRowPitch - 1};
      std::vector<CopyMark> lane_bars;
      for (const auto& [c, row] : panel.lane_slots) {
        const AsyncCopy& copy = plan.copies[c];
        CopyMark mark{static_cast<int>(c),
                      copy.kind == CopyKind::kPrefetch ? kColorPrefetch : kColorEviction, {}};
        const double y = panel.lane.y + row * kLaneRowPitch;
        if (!ClipBox(TimeX(layout, static_cast<double>(copy.start)),
                     TimeX(layout, static_cast<double>(SaturatingNext(copy.done))), y,
                     y + kLaneRowPitch - 1, panel.lane, mark.box)) {
          continue;
        }
        lane_bars.push_back(mark);
      }
      CoverageGrid lane_grid(static_cast<int>(panel.lane.w), static_cast<int>(panel.lane.h),
                             kColorCount);
      panel.lane_bars = SplitByBudget(std::move(lane_bars), options, panel.lane, lane_grid);
      panel.lane_coverage = lane_grid.Rects();
      panel.bottom = panel.lane.y + panel.lane.h;
    }
    top = panel.bottom + kPanelGap;
    layout.panels.push_back(std::move(panel));
  }
  layout.height = layout.panels.back().bottom + kBottomMargin;
  layout.legend_colors.assign(colors.begin(), colors.end());

  layout.title = !options.title.empty() ? options.title
                 : plan.input.empty()   ? std::string("memory map")
                                        : "memory map: " + plan.input;
  std::vector<std::string> parts;
  if (!plan.algorithm.empty()) parts.push_back("algorithm " + plan.algorithm);
  parts.push_back(CountOf(buffers.buffers.size(), "buffer"));
  parts.push_back(CountOf(plan.time_steps, "time step"));
  const auto [extent_text, bound_text] = FormatExtentAndBound(plan.peak, plan.lower_bound);
  parts.push_back("transient extent " + extent_text);
  parts.push_back("lower bound " + bound_text);
  if (plan.lower_bound > 0) {
    parts.push_back(FormatPercentOver(plan.peak, plan.lower_bound) + " over the bound");
  }
  if (!plan.copies.empty()) parts.push_back(CountOf(plan.copies.size(), "async copy", "async copies"));
  parts.push_back(plan.verified ? "verified" : "not verified");
  layout.subtitle = fmt::format("{}", fmt::join(parts, " · "));
  return layout;
}

}  // namespace memplan::memmap
