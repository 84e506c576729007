#include "report/map/svg.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "report/map/format.h"
#include "ir/dims.h"
#include "ir/plural.h"

namespace memplan {
namespace memmap {
namespace {

// Most value names listed in one tooltip.
constexpr std::size_t kMaxTooltipValues = 8;
// Segments at least this many pixels in both directions get a white outline
// that separates neighbours.
constexpr double kMinOutlinedPx = 4;
// Average glyph width of 11px sans-serif, for the box behind a line label.
constexpr double kLabelBoxCharWidth = 5.8;

std::string C(double value) { return FormatCoord(value); }

void AppendStyle(std::string& out, const MapLayout& layout, std::string_view id_prefix) {
  out +=
      "<style>"
      "text{font-family:sans-serif;font-size:11px;fill:#333}"
      ".title{font-size:16px;font-weight:bold;fill:#111}"
      ".subtitle{font-size:12px;fill:#555}"
      ".ptitle{font-size:12px;font-weight:bold;fill:#222}"
      ".note{font-size:12px;fill:#888}"
      ".axis-name{font-style:italic;fill:#666}"
      ".plot{fill:#fff;stroke:#999;stroke-width:1}"
      ".grid{stroke:#ececec;stroke-width:1}"
      ".o{stroke:#fff;stroke-width:0.5}"
      ".band{fill-opacity:0.10}"
      ".block-label{fill:#111;pointer-events:none;paint-order:stroke;stroke:#fff;"
      "stroke-width:3px;stroke-linejoin:round;stroke-opacity:0.8}"
      ".band-bg{fill:#fff;fill-opacity:0.85}"
      ".band-label{font-size:11px;fill:#555;paint-order:stroke;stroke:#fff;stroke-width:3px;"
      "stroke-linejoin:round}"
      ".copy{stroke:#fff;stroke-width:0.5}"
      ".line{stroke-width:1.5;fill:none}"
      ".peak{stroke:#222}"
      ".bound{stroke:#c0392b;stroke-dasharray:6 4}"
      ".capacity{stroke:#777;stroke-dasharray:2 3}"
      ".line-label{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
      ".peak-step{stroke:#6a3d9a;stroke-width:1.5;stroke-dasharray:5 3}"
      ".peak-label{fill:#6a3d9a;font-weight:bold}"
      ".hl{fill:none;stroke:#000;stroke-width:2}"
      ".cursor{stroke:#000;stroke-width:1;stroke-opacity:0.5}";
  // Maps without regions keep their original style, byte for byte.
  if (layout.regions) {
    out +=
        ".alloc{fill:none;stroke:#333;stroke-width:1}"
        ".label-bg{fill:#fff;fill-opacity:0.85}"
        ".alloc-label{font-size:11px;font-weight:bold;fill:#222;paint-order:stroke;stroke:#fff;"
        "stroke-width:3px;stroke-linejoin:round}";
  }
  // Maps without window prefetches or a prefetch block keep theirs too.
  if (layout.legend_window) {
    out += ".win{stroke:#f28e2b;stroke-width:1}";
  }
  if (layout.legend_staged) out += ".staged{stroke:#555;stroke-width:1;stroke-dasharray:4 2}";
  if (layout.legend_block) {
    out +=
        ".pblock{fill:none;stroke:#555;stroke-width:1.5;stroke-dasharray:8 3}"
        ".pblock-label{font-size:11px;font-weight:bold;fill:#555;paint-order:stroke;"
        "stroke:#fff;stroke-width:3px;stroke-linejoin:round}";
  }
  const int colors = layout.regions ? kColorCount : kColorCountWithoutRegions;
  for (int color = 0; color < colors; ++color) {
    out += fmt::format(".k{}{{fill:{}}}", color, ColorHex(color));
  }
  out += "</style>\n";
  // Windows are hatched in the prefetch color: they reserve bytes no
  // buffer's segment holds.
  if (layout.legend_window) {
    out += fmt::format(
        "<defs><pattern id=\"{}-hatch\" width=\"4\" height=\"4\" "
        "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        "<rect width=\"4\" height=\"4\" fill=\"#fdebd9\"/>"
        "<rect width=\"1.5\" height=\"4\" fill=\"#f28e2b\"/></pattern></defs>\n",
        id_prefix);
  }
}

std::string_view LineClass(LineMark::Style style) {
  switch (style) {
    case LineMark::Style::kSolid: return "peak";
    case LineMark::Style::kDashed: return "bound";
    case LineMark::Style::kDotted: return "capacity";
  }
  return "peak";
}

std::string SpaceLabel(const Plan& plan, MemorySpace space) {
  return fmt::format("{} ({})", SpaceName(plan, space), space);
}

// Tooltip text of one segment (plain text; escaped by the caller).
std::string DescribeSegment(const BufferSet& buffers, const Plan& plan, const MapOptions& options,
                            const SegmentMark& mark) {
  const Buffer& buffer = buffers.buffers[static_cast<std::size_t>(mark.buffer)];
  const AllocationList& allocations =
      plan.placements[static_cast<std::size_t>(mark.buffer)].allocations;
  const Allocation& a = allocations[static_cast<std::size_t>(mark.allocation)];
  std::string text = buffer.name.empty() ? fmt::format("buffer {}", mark.buffer) : buffer.name.str();
  if (options.program != nullptr && !buffer.values.empty()) {
    std::vector<std::string> names;
    for (ValueId v : buffer.values) {
      if (names.size() == kMaxTooltipValues) break;
      if (v >= 0 && static_cast<std::size_t>(v) < options.program->values.size()) {
        names.push_back("%" + options.program->values[static_cast<std::size_t>(v)].name);
      }
    }
    text += fmt::format("\nvalues: {}", fmt::join(names, ", "));
    if (buffer.values.size() > kMaxTooltipValues) {
      text += fmt::format(" (+{} more)", buffer.values.size() - kMaxTooltipValues);
    }
  }
  text += "\nsize " + FormatBytesExact(buffer.size);
  text += fmt::format("\nlive [{}, {}]", buffer.start, buffer.end);
  if (allocations.size() > 1) text += fmt::format(", here [{}, {}]", a.start, a.end);
  text += fmt::format("\npool {}, space {}, offset {}",
                      PoolLabel(plan, PoolOf(buffers, plan, mark.buffer)),
                      SpaceLabel(plan, a.space), FormatOffset(a.offset));
  return text;
}

// Tooltip text of a region allocation (plain text; escaped by the caller).
std::string DescribeOutline(const Plan& plan, const MapOptions& options, const OutlineMark& mark) {
  const PoolInfo& pool = plan.pools[static_cast<std::size_t>(mark.pool)];
  std::string text = PoolLabel(plan, pool.name);
  text += "\nsize " + FormatBytesExact(pool.size);
  if (const Resource* r = FindResource(plan, pool.name); r != nullptr && !r->size.IsConstant()) {
    const std::vector<std::string> names =
        options.program != nullptr ? DimNames(*options.program) : std::vector<std::string>{};
    text += " = " + r->size.ToString(names);
  }
  text += fmt::format("\nexists [{}, {}]", pool.start.value_or(0), pool.end.value_or(0));
  text += fmt::format("\n{}, {} in all, lower bound {}", CountOf(pool.buffers, "buffer"),
                      FormatBytes(pool.total_bytes),
                      FormatBytes(pool.lower_bound));
  text += fmt::format("\nspace {}, offset {}", SpaceLabel(plan, pool.space),
                      FormatOffset(pool.offset));
  return text;
}

// Tooltip of a region copy: "w (copy): 4.00 KiB from dram memory at step 0,
// read through step 3".
std::string DescribeRegionCopy(const Plan& plan, const RegionCopyMark& mark) {
  const RegionCopy& copy = plan.regions->regions[static_cast<std::size_t>(mark.region)]
                               .copies[static_cast<std::size_t>(mark.copy)];
  return fmt::format("{}: {} from {} memory at step {}, read through step {}", mark.label,
                     FormatBytes(copy.bytes), SpaceName(plan, copy.from_space), copy.start,
                     copy.end);
}

std::string DescribeCopy(const BufferSet& buffers, const Plan& plan, int index) {
  const AsyncCopy& copy = plan.copies[static_cast<std::size_t>(index)];
  const auto b = static_cast<std::size_t>(copy.buffer);
  const std::string name = copy.buffer >= 0 && b < buffers.buffers.size()
                               ? buffers.buffers[b].name.str()
                               : fmt::format("buffer {}", copy.buffer);
  return fmt::format("{} of {}\nspace {} -> {}\ncopy-start {}, copy-done {}\n{}",
                     copy.kind == CopyKind::kPrefetch ? "prefetch" : "eviction", name,
                     SpaceLabel(plan, copy.from_space), SpaceLabel(plan, copy.to_space),
                     copy.start, copy.done, FormatBytesExact(copy.bytes));
}

// Tooltip text of a window prefetch's chunk (plain text; escaped by the caller).
std::string DescribeWindow(const BufferSet& buffers, const Plan& plan, const MapOptions& options,
                           int index) {
  const WindowPrefetch& w = plan.window_prefetches[static_cast<std::size_t>(index)];
  const auto b = static_cast<std::size_t>(w.buffer);
  const std::string name = w.buffer >= 0 && b < buffers.buffers.size()
                               ? buffers.buffers[b].name.str()
                               : fmt::format("buffer {}", w.buffer);
  // The op runs at the window's copy-done step.
  std::string op = options.describe_step ? options.describe_step(w.done) : std::string();
  if (op.empty()) op = fmt::format("op {}", w.op);
  return fmt::format(
      "window of {} for {}\nfirst {} of the buffer, operand {}\nspace {}, offset {}\n"
      "reserved from copy-start {} through copy-done {}",
      name, op, FormatBytesExact(w.bytes), w.operand, SpaceLabel(plan, w.space),
      FormatOffset(w.offset), w.start, w.done);
}

// Tooltip text of a staged copy's chunk in its intermediate level.
std::string DescribeStaged(const BufferSet& buffers, const Plan& plan, int index) {
  const AsyncCopy& copy = plan.copies[static_cast<std::size_t>(index)];
  const auto b = static_cast<std::size_t>(copy.buffer);
  const std::string name = copy.buffer >= 0 && b < buffers.buffers.size()
                               ? buffers.buffers[b].name.str()
                               : fmt::format("buffer {}", copy.buffer);
  const auto [first, last] = StagingSteps(copy);
  return fmt::format(
      "staged chunk of {}\nprefetch space {} -> {} through {}, offset {}\n{} held over [{}, {}]",
      name, SpaceLabel(plan, copy.from_space), SpaceLabel(plan, copy.to_space),
      SpaceLabel(plan, copy.via->space), FormatOffset(copy.via->offset),
      FormatBytesExact(copy.bytes), first, last);
}

std::string DescribeBlock(const Plan& plan) {
  const MsaStats& msa = *plan.msa;
  return fmt::format(
      "prefetch block\n{} reserved for the whole run, offset {}\n{} into it; the weights "
      "prefetched there share it over time",
      FormatBytesExact(msa.block->size), FormatOffset(msa.block->offset),
      CountOf(msa.block_prefetches, "block prefetch", "block prefetches"));
}

void AppendRect(std::string& out, std::string_view attributes, const Box& box,
                const std::string& tooltip) {
  out += fmt::format("<rect {} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", attributes, C(box.x),
                     C(box.y), C(box.w), C(box.h));
  if (tooltip.empty()) {
    out += "/>";
  } else {
    out += fmt::format("><title>{}</title></rect>", XmlEscape(tooltip));
  }
}

// Merged coverage: one <path> per color, each rectangle a closed subpath.
void AppendCoverage(std::string& out, const std::vector<PixelRect>& rects, double origin_x,
                    double origin_y, std::string_view extra_class) {
  for (std::size_t i = 0; i < rects.size();) {
    const int color = rects[i].color;
    out += fmt::format("<path class=\"k{}{}\" d=\"", color, extra_class);
    for (; i < rects.size() && rects[i].color == color; ++i) {
      const PixelRect& r = rects[i];
      out += fmt::format("M{} {}h{}v{}h-{}z", C(origin_x + r.x), C(origin_y + r.y), r.w, r.h, r.w);
    }
    out += "\"/>\n";
  }
}

void AppendLegend(std::string& out, const MapLayout& layout, std::string_view id_prefix) {
  // Entries 18 px apart from the plot's left edge; when that would run past
  // the picture (many colors in a narrow map), closer and from the margin.
  std::vector<std::string_view> labels;
  for (int color : layout.legend_colors) labels.push_back(ColorLabel(color));
  if (layout.legend_window) labels.push_back("window prefetch");
  if (layout.legend_staged) labels.push_back("staged chunk");
  if (layout.legend_block) labels.push_back("prefetch block");
  if (layout.legend_outline) labels.push_back("region allocation");
  if (layout.legend_peak) labels.push_back("extent / used");
  if (layout.legend_lower_bound) labels.push_back("lower bound");
  if (layout.legend_capacity) labels.push_back("capacity");
  if (layout.legend_peak_step) labels.push_back("peak step");
  double needed = 0;
  for (std::string_view label : labels) needed += 20 + static_cast<double>(label.size()) * 6.6 + 18;
  const bool tight = layout.plot_x + needed > layout.width;
  const double gap = tight ? 8 : 18;
  const double char_width = tight ? 6.2 : 6.6;
  double x = tight ? 8 : layout.plot_x;
  const double y = layout.legend_y;
  const auto advance = [&](std::string_view label) {
    x += 20 + static_cast<double>(label.size()) * char_width + gap;
  };
  for (int color : layout.legend_colors) {
    out += fmt::format(
        "<rect class=\"k{}{}\" x=\"{}\" y=\"{}\" width=\"14\" height=\"12\"/>"
        "<text x=\"{}\" y=\"{}\">{}</text>",
        color, color == kColorPrefetch || color == kColorEviction ? " copy" : "", C(x), C(y - 10),
        C(x + 20), C(y), ColorLabel(color));
    advance(ColorLabel(color));
  }
  // A swatch with the class (and fill) of what it names.
  const auto rect_entry = [&](bool present, const std::string& attributes, std::string_view label) {
    if (!present) return;
    out += fmt::format(
        "<rect {} x=\"{}\" y=\"{}\" width=\"14\" height=\"12\"/><text x=\"{}\" y=\"{}\">{}</text>",
        attributes, C(x + 0.5), C(y - 9.5), C(x + 20), C(y), label);
    advance(label);
  };
  rect_entry(layout.legend_window,
             fmt::format("class=\"win\" fill=\"url(#{}-hatch)\"", id_prefix), "window prefetch");
  rect_entry(layout.legend_staged, fmt::format("class=\"k{} copy staged\"", kColorPrefetch),
             "staged chunk");
  rect_entry(layout.legend_block, "class=\"pblock\"", "prefetch block");
  rect_entry(layout.legend_outline, "class=\"alloc\"", "region allocation");
  const auto line_entry = [&](bool present, std::string_view cls, std::string_view label) {
    if (!present) return;
    out += fmt::format(
        "<line class=\"line {}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\">{}</text>",
        cls, C(x), C(y - 4), C(x + 16), C(y - 4), C(x + 20), C(y), label);
    advance(label);
  };
  // The solid line: the transient extent in default memory, the bytes used
  // in another space.
  line_entry(layout.legend_peak, "peak", "extent / used");
  line_entry(layout.legend_lower_bound, "bound", "lower bound");
  line_entry(layout.legend_capacity, "capacity", "capacity");
  if (layout.legend_peak_step) {
    constexpr std::string_view kLabel = "peak step";
    out += fmt::format(
        "<line class=\"peak-step\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\">{}</text>",
        C(x + 7), C(y - 11), C(x + 7), C(y + 1), C(x + 20), C(y), kLabel);
    advance(kLabel);
  }
  out += "\n";
}

void AppendPanel(std::string& out, const MapLayout& layout, const Panel& panel,
                 const BufferSet& buffers, const Plan& plan, const MapOptions& options,
                 bool standalone, std::string_view id_prefix) {
  const Box& plot = panel.plot;
  const double right = plot.x + plot.w;
  const double bottom = plot.y + plot.h;
  out += fmt::format("<g class=\"panel\" data-space=\"{}\">\n", panel.space);
  out += fmt::format("<text class=\"ptitle\" x=\"{}\" y=\"{}\">{}</text>\n", C(plot.x),
                     C(plot.y - 8), XmlEscape(panel.title));
  out += fmt::format("<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                     C(plot.x), C(plot.y), C(plot.w), C(plot.h));
  // Grid and ticks.
  for (const Tick& tick : panel.address_ticks) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        C(plot.x), C(tick.pos), C(right), C(tick.pos), C(plot.x - 6), C(tick.pos + 4), tick.label);
  }
  for (const Tick& tick : layout.time_ticks) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        C(tick.pos), C(plot.y), C(tick.pos), C(bottom), C(tick.pos), C(panel.time_label_y),
        tick.label);
  }
  out += fmt::format(
      "<text class=\"axis-name\" x=\"{}\" y=\"{}\" text-anchor=\"end\">time step</text>\n",
      C(plot.x - 6), C(panel.time_label_y + 12));

  for (const BandMark& band : panel.bands) {
    out += fmt::format("<rect class=\"band k{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                       band.color, C(band.box.x), C(band.box.y), C(band.box.w), C(band.box.h));
  }
  for (const OutlineMark& mark : panel.outlines) {
    out += fmt::format("<rect class=\"band k{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                       mark.color, C(mark.box.x), C(mark.box.y), C(mark.box.w), C(mark.box.h));
  }

  AppendCoverage(out, panel.coverage, plot.x, plot.y, "");
  out += "<g class=\"seg\">\n";
  for (const SegmentMark& mark : panel.segments) {
    // Thin rectangles get no outline: it would wash out their color.
    const bool outlined = std::min(mark.box.w, mark.box.h) >= kMinOutlinedPx;
    AppendRect(out,
               fmt::format("class=\"k{}{}\" data-b=\"{}\"", mark.color, outlined ? " o" : "",
                           mark.buffer),
               mark.box,
               standalone ? DescribeSegment(buffers, plan, options, mark) : std::string());
    out += "\n";
  }
  out += "</g>\n";

  AppendCoverage(out, panel.copy_coverage, plot.x, plot.y, " copy");
  for (const CopyMark& mark : panel.copies) {
    AppendRect(out, fmt::format("class=\"k{} copy\" data-c=\"{}\"", mark.color, mark.copy),
               mark.box, standalone ? DescribeCopy(buffers, plan, mark.copy) : std::string());
    out += "\n";
  }

  for (const CopyMark& mark : panel.staged) {
    AppendRect(out, fmt::format("class=\"k{} copy staged\" data-s=\"{}\"", mark.color, mark.copy),
               mark.box, DescribeStaged(buffers, plan, mark.copy));
    out += "\n";
  }

  // Region copies: drawn like async copies' bars, named by the copied value.
  for (const RegionCopyMark& mark : panel.region_copies) {
    AppendRect(out,
               fmt::format("class=\"k{} copy region-copy\" data-rc=\"{}:{}\"", kColorPrefetch,
                           mark.region, mark.copy),
               mark.box, DescribeRegionCopy(plan, mark));
    out += "\n";
    if (mark.labeled) {
      out += fmt::format("<text class=\"alloc-label\" x=\"{}\" y=\"{}\">{}</text>\n",
                         C(mark.label_x), C(mark.label_y), XmlEscape(mark.label));
    }
  }

  for (const WindowMark& mark : panel.windows) {
    AppendRect(out,
               fmt::format("class=\"win\" fill=\"url(#{}-hatch)\" data-w=\"{}\"", id_prefix,
                           mark.window),
               mark.box, DescribeWindow(buffers, plan, options, mark.window));
    out += "\n";
  }
  if (panel.prefetch_block) {
    const BlockMark& mark = *panel.prefetch_block;
    AppendRect(out, "class=\"pblock\"", mark.box, DescribeBlock(plan));
    out += "\n";
    if (mark.labeled) {
      out += fmt::format("<text class=\"pblock-label\" x=\"{}\" y=\"{}\">prefetch block</text>\n",
                         C(mark.label_x), C(mark.label_y));
    }
  }

  // Region allocations: outlines over their buffers (a tooltip on the
  // outline; the page script describes the buffers inside), names on top.
  for (const OutlineMark& mark : panel.outlines) {
    AppendRect(out, fmt::format("class=\"alloc\" data-p=\"{}\"", mark.pool), mark.box,
               DescribeOutline(plan, options, mark));
    out += "\n";
  }
  for (const OutlineMark& mark : panel.outlines) {
    if (!mark.labeled) continue;
    out += fmt::format("<text class=\"alloc-label\" x=\"{}\" y=\"{}\">{}</text>\n",
                       C(mark.label_x), C(mark.label_y),
                       XmlEscape(plan.pools[static_cast<std::size_t>(mark.pool)].name));
  }
  // Pool names go on top of the marks, where no line or label is
  // (report/map/labels.h), and so do the largest blocks' names.
  for (const BandMark& band : panel.bands) {
    if (!band.labeled) continue;
    // A pale box behind the text: the edges of the pool's buffers would
    // otherwise cross it.
    const double width = static_cast<double>(band.label.size()) * kLabelBoxCharWidth + 6;
    out += fmt::format(
        "<rect class=\"band-bg\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"14\"/>"
        "<text class=\"band-label\" x=\"{}\" y=\"{}\">{}</text>\n",
        C(band.label_x - 3), C(band.label_y - 11), C(width), C(band.label_x), C(band.label_y),
        XmlEscape(band.label));
  }
  for (const BlockLabel& label : panel.block_labels) {
    out += fmt::format("<text class=\"block-label\" data-of=\"{}\" x=\"{}\" y=\"{}\">{}</text>\n",
                       label.buffer, C(label.x), C(label.y), XmlEscape(label.text));
  }
  // All lines before any label, so that no line strikes through a label.
  for (const LineMark& line : panel.lines) {
    out += fmt::format("<line class=\"line {}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
                       LineClass(line.style), C(plot.x), C(line.y), C(right), C(line.y));
  }
  for (const LineMark& line : panel.lines) {
    // Region maps have outlines that would show through the gaps between
    // words; a pale box behind the label keeps it readable.
    if (layout.regions) {
      const double width = static_cast<double>(line.label.size()) * kLabelBoxCharWidth + 6;
      out += fmt::format("<rect class=\"label-bg\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"14\"/>",
                         C(line.label_x - width + 3), C(line.label_y - 11), C(width));
    }
    out += fmt::format(
        "<text class=\"line-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        C(line.label_x), C(line.label_y), XmlEscape(line.label));
  }

  if (panel.peak) {
    const PeakMark& peak = *panel.peak;
    out += fmt::format(
        "<g class=\"peak-marker\" data-step=\"{}\"><line class=\"peak-step\" x1=\"{}\" "
        "y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"line-label peak-label\" x=\"{}\" "
        "y=\"{}\"{}>{}</text>",
        peak.step, C(peak.x), C(plot.y), C(peak.x), C(bottom), C(peak.label_x), C(peak.label_y),
        peak.label_end ? " text-anchor=\"end\"" : "", XmlEscape(peak.label));
    if (standalone) out += fmt::format("<title>{}</title>", XmlEscape(peak.full_label));
    out += "</g>\n";
  }

  if (panel.segment_count == 0 && panel.copy_count == 0 && panel.windows.empty() &&
      panel.staged.empty()) {
    out += fmt::format(
        "<text class=\"note\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">no buffers in this "
        "space</text>\n",
        C(plot.x + plot.w / 2), C(plot.y + plot.h / 2));
  }

  if (panel.lane.h > 0) {
    const Box& lane = panel.lane;
    out += fmt::format(
        "<text class=\"axis-name\" x=\"{}\" y=\"{}\" text-anchor=\"end\">async copies</text>\n",
        C(lane.x - 6), C(lane.y + lane.h / 2 + 4));
    AppendCoverage(out, panel.lane_coverage, lane.x, lane.y, " copy");
    for (const CopyMark& mark : panel.lane_bars) {
      AppendRect(out, fmt::format("class=\"k{}\" data-c=\"{}\"", mark.color, mark.copy), mark.box,
                 standalone ? DescribeCopy(buffers, plan, mark.copy) : std::string());
      out += "\n";
    }
  }
  out += "</g>\n";
}

}  // namespace

std::string RenderSvgElement(const MapLayout& layout, const BufferSet& buffers, const Plan& plan,
                             const MapOptions& options, bool standalone,
                             std::string_view id_prefix) {
  std::string out;
  // Embedded maps start just above the legend: the page has its own header.
  const double crop = standalone ? 0 : layout.legend_y - 20;
  out += fmt::format(
      "<svg{} width=\"{}\" height=\"{}\" viewBox=\"0 {} {} {}\" role=\"img\" "
      "aria-label=\"{}\">\n",
      standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", C(layout.width),
      C(layout.height - crop), C(crop), C(layout.width), C(layout.height - crop),
      XmlEscape(layout.title));
  AppendStyle(out, layout, id_prefix);
  out += fmt::format("<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\"/>\n", C(crop),
                     C(layout.width), C(layout.height - crop));
  if (standalone) {
    out += fmt::format("<title>{}</title>\n", XmlEscape(layout.title));
    out += fmt::format("<text class=\"title\" x=\"{}\" y=\"{}\">{}</text>\n", C(layout.plot_x),
                       C(layout.title_y), XmlEscape(layout.title));
    out += fmt::format("<text class=\"subtitle\" x=\"{}\" y=\"{}\">{}</text>\n", C(layout.plot_x),
                       C(layout.subtitle_y), XmlEscape(layout.subtitle));
  }
  AppendLegend(out, layout, id_prefix);
  for (const Panel& panel : layout.panels) {
    AppendPanel(out, layout, panel, buffers, plan, options, standalone, id_prefix);
  }
  if (!standalone) {
    out += fmt::format(
        "<rect id=\"{0}-hl\" class=\"hl\" x=\"0\" y=\"0\" width=\"0\" height=\"0\" "
        "visibility=\"hidden\"/>\n"
        "<line id=\"{0}-cursor\" class=\"cursor\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"0\" "
        "visibility=\"hidden\"/>\n",
        id_prefix);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace memmap

std::string RenderSvgMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options) {
  const memmap::MapLayout layout = memmap::LayoutMap(buffers, plan, options);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
         memmap::RenderSvgElement(layout, buffers, plan, options, /*standalone=*/true);
}

}  // namespace memplan
