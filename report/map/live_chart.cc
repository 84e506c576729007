#include "report/map/live_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "report/map/format.h"
#include "report/map/labels.h"
#include "report/map/live_series.h"

namespace memplan::memmap {
namespace {

constexpr double kChartBottomMargin = 34;
constexpr double kChartTitleY = 14;
constexpr double kChartLegendY = 30;
// The curve is drawn exactly while it has at most this many steps per pixel
// column; beyond that, as the per-column maximum.
constexpr double kExactStepsPerPixel = 2;

struct SeriesColor {
  std::string_view fill;
  std::string_view dark;  // peak line and label
};
// Blue for the default space (as the transient pool in the map), then teal,
// purple, olive for other spaces.
constexpr std::array<SeriesColor, 4> kSeriesColors = {{
    {"#4e79a7", "#2c4d73"},
    {"#76b7b2", "#2f7a74"},
    {"#b07aa1", "#7a4a6e"},
    {"#b6992d", "#7a6619"},
}};

std::string Px(double value) { return FormatCoord(value); }

void Downsample(LiveSeries& series, const std::vector<LiveStep>& steps, TimeStep time_top,
                double plot_w) {
  for (const LiveStep& step : steps) series.max = std::max(series.max, step.bytes);
  const auto columns = static_cast<std::size_t>(std::max(1.0, std::floor(plot_w)));
  if (static_cast<double>(steps.size()) <= kExactStepsPerPixel * plot_w) {
    series.points = steps;
    return;
  }
  series.exact = false;
  const double per_column = static_cast<double>(time_top) / static_cast<double>(columns);
  std::vector<Bytes> column_max(columns, 0);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const double begin = static_cast<double>(steps[i].start);
    const double end = i + 1 < steps.size() ? static_cast<double>(steps[i + 1].start)
                                            : static_cast<double>(time_top);
    if (!(end > begin)) continue;
    const auto first = static_cast<std::size_t>(
        std::clamp(std::floor(begin / per_column), 0.0, static_cast<double>(columns - 1)));
    const auto last = static_cast<std::size_t>(
        std::clamp(std::ceil(end / per_column) - 1, 0.0, static_cast<double>(columns - 1)));
    for (std::size_t c = first; c <= last; ++c) {
      column_max[c] = std::max(column_max[c], steps[i].bytes);
    }
  }
  for (std::size_t c = 0; c < columns; ++c) {
    const auto start = static_cast<TimeStep>(std::ceil(static_cast<double>(c) * per_column));
    if (!series.points.empty() && series.points.back().start == start) continue;
    series.points.push_back({start, column_max[c]});
  }
}

// The peak marker of a series: the label on the side of the line with room
// (right first), elided to fit; BuildLiveChart gives it its row.
PeakMark PeakMarker(const MapLayout& layout, const ProfilePeak& peak, const std::string& name,
                    const MapOptions& options) {
  PeakMark mark;
  mark.step = peak.step;
  mark.bytes = peak.bytes;
  mark.x = TimeX(layout, static_cast<double>(peak.step) + 0.5);
  const std::string numbers = fmt::format("peak step {} · {}", peak.step, FormatBytes(peak.bytes));
  const std::string head = name + ": " + numbers;
  mark.full_label = head;
  const std::string op = options.describe_step ? options.describe_step(peak.step) : std::string();
  if (!op.empty()) mark.full_label += " · " + op;
  const PeakLabelSide side =
      ChoosePeakLabelSide(mark.x, static_cast<double>(mark.full_label.size()) * kMapCharWidth,
                          layout.plot_x, layout.plot_x + layout.plot_w);
  mark.label_end = side.left;
  const auto chars = static_cast<std::size_t>(std::max(0.0, side.room / kMapCharWidth));
  // Shorten the op name, then drop it, then shorten the space name: the step
  // and bytes are what the label is for.
  if (mark.full_label.size() <= chars) {
    mark.label = mark.full_label;
  } else if (!op.empty() && chars >= head.size() + 3 + 8) {
    mark.label = head + " · " + ElideMiddle(op, chars - head.size() - 3);
  } else if (head.size() <= chars) {
    mark.label = head;
  } else {
    const std::size_t name_chars = chars > numbers.size() + 3 ? chars - numbers.size() - 2 : 1;
    mark.label = ElideMiddle(name, name_chars) + ": " + numbers;
  }
  mark.label_x = mark.label_end ? mark.x - 4 : mark.x + 4;
  mark.label_y = 0;  // BuildLiveChart gives each label its row
  return mark;
}

}  // namespace

LiveChart BuildLiveChart(const MapLayout& layout, const BufferSet& buffers, const Plan& plan,
                         const MapOptions& options) {
  LiveChart chart;
  chart.lower_bound = plan.lower_bound;
  Bytes top = plan.lower_bound;
  for (const Panel& panel : layout.panels) {
    LiveSeries series;
    series.space = panel.space;
    const std::vector<LiveStep> steps =
        panel.space == kDefaultSpace ? TransientLiveProfile(buffers, plan)
                                     : SpaceLiveProfile(buffers, plan, panel.space, false);
    series.name = panel.space == kDefaultSpace
                      ? SpaceName(plan, panel.space) + " memory, transient"
                      : SpaceName(plan, panel.space) + " memory";
    const SeriesColor& color = kSeriesColors[std::min(chart.series.size(), kSeriesColors.size() - 1)];
    series.color = std::string(color.fill);
    Downsample(series, steps, layout.time_top, layout.plot_w);
    if (const std::optional<ProfilePeak> peak = PeakOf(steps)) {
      series.peak = PeakMarker(layout, *peak, series.name, options);
    }
    top = std::max(top, series.max);
    chart.series.push_back(std::move(series));
  }
  // The peak labels get rows of their own above the plot, so the axis
  // needs no headroom for them: it ends just above the highest value.
  const auto labels = std::count_if(chart.series.begin(), chart.series.end(),
                                    [](const LiveSeries& s) { return s.peak.has_value(); });
  chart.plot_top = kLiveTop + static_cast<double>(labels) * kLiveLabelRow + (labels > 0 ? 4 : 0);
  chart.height = chart.plot_top + kLiveHeight + kChartBottomMargin;
  chart.axis = NiceAddressAxis(static_cast<double>(top), 5);
  double baseline = kLiveTop + kLiveLabelRow - 3;
  for (LiveSeries& series : chart.series) {
    if (!series.peak) continue;
    series.peak->label_y = baseline;
    baseline += kLiveLabelRow;
  }
  return chart;
}

std::string RenderLiveChart(const MapLayout& layout, const LiveChart& chart) {
  std::string out;
  const double x0 = layout.plot_x;
  const double w = layout.plot_w;
  const double y0 = chart.plot_top;
  const double h = kLiveHeight;
  const double bottom = y0 + h;
  const auto y_of = [&](double bytes) { return bottom - bytes / chart.axis.top * h; };
  out += fmt::format(
      "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"live bytes over time\">\n",
      Px(layout.width), Px(chart.height), Px(layout.width), Px(chart.height));
  out +=
      "<style>text{font-family:sans-serif;font-size:11px;fill:#333}"
      ".ptitle{font-size:12px;font-weight:bold;fill:#222}.grid{stroke:#ececec}"
      ".plot{fill:#fff;stroke:#999}.axis-name{font-style:italic;fill:#666}"
      ".bound{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4}"
      ".live-area{fill-opacity:0.3;stroke-width:1.2}"
      ".peak-step{stroke-width:1.5;stroke-dasharray:5 3}.peak-label{font-weight:bold}"
      ".line-label{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
      "#live-cursor{stroke:#000;stroke-width:1;stroke-opacity:0.5}"
      "</style>\n";
  bool exact = true;
  for (const LiveSeries& series : chart.series) exact = exact && series.exact;
  out += fmt::format("<text class=\"ptitle\" x=\"{}\" y=\"{}\">live bytes over time{}</text>\n",
                     Px(x0), Px(kChartTitleY), exact ? "" : " (per pixel column: the maximum)");
  // Legend: a swatch and the maximum per series, then the lower bound.
  double x = x0;
  for (const LiveSeries& series : chart.series) {
    const std::string label = fmt::format("{} · max {}", series.name, FormatBytes(series.max));
    out += fmt::format(
        "<rect class=\"live-area\" x=\"{}\" y=\"{}\" width=\"14\" height=\"10\" fill=\"{}\" "
        "stroke=\"{}\"/><text class=\"series-name\" data-space=\"{}\" x=\"{}\" y=\"{}\">{}</text>\n",
        Px(x), Px(kChartLegendY - 9), series.color, series.color, series.space, Px(x + 20), Px(kChartLegendY),
        XmlEscape(label));
    x += 20 + static_cast<double>(label.size()) * kMapCharWidth + 18;
  }
  if (chart.lower_bound > 0) {
    const std::string label = "lower bound " + FormatBytes(chart.lower_bound);
    const double width = 20 + static_cast<double>(label.size()) * kMapCharWidth;
    // Past the picture's right edge (two curves in a narrow map): on the
    // title row instead, ending at the plot's right edge.
    double y = kChartLegendY;
    if (x + width > layout.width - 4) {
      x = x0 + w - width;
      y = kChartTitleY;
    }
    out += fmt::format(
        "<line class=\"bound\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\">{}</text>\n",
        Px(x), Px(y - 4), Px(x + 16), Px(y - 4), Px(x + 20), Px(y), label);
  }
  out += fmt::format("<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", Px(x0),
                     Px(y0), Px(w), Px(h));
  for (const Tick& tick : AddressTicks(chart.axis, bottom, h)) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        Px(x0), Px(tick.pos), Px(x0 + w), Px(tick.pos), Px(x0 - 6), Px(tick.pos + 4), tick.label);
  }
  for (const Tick& tick : layout.time_ticks) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        Px(tick.pos), Px(y0), Px(tick.pos), Px(bottom), Px(tick.pos), Px(bottom + 16), tick.label);
  }
  out += fmt::format(
      "<text class=\"axis-name\" x=\"{}\" y=\"{}\" text-anchor=\"end\">time step</text>\n",
      Px(x0 - 6), Px(bottom + 28));
  // Step curves: each point holds its value until the next point's start.
  for (const LiveSeries& series : chart.series) {
    out += fmt::format("<path class=\"live-area\" data-space=\"{}\" fill=\"{}\" stroke=\"{}\" d=\"M{} {}",
                       series.space, series.color, series.color, Px(x0), Px(bottom));
    for (std::size_t i = 0; i < series.points.size(); ++i) {
      const TimeStep end =
          i + 1 < series.points.size() ? series.points[i + 1].start : layout.time_top;
      out += fmt::format("V{}H{}", Px(y_of(static_cast<double>(series.points[i].bytes))),
                         Px(TimeX(layout, static_cast<double>(std::min(end, layout.time_top)))));
    }
    out += fmt::format("V{}Z\"/>\n", Px(bottom));
  }
  if (chart.lower_bound > 0) {
    const double y = y_of(static_cast<double>(chart.lower_bound));
    out += fmt::format("<line class=\"bound\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", Px(x0),
                       Px(y), Px(x0 + w), Px(y));
  }
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    if (!chart.series[s].peak) continue;
    const PeakMark& peak = *chart.series[s].peak;
    const std::string_view dark = kSeriesColors[std::min(s, kSeriesColors.size() - 1)].dark;
    out += fmt::format(
        "<g class=\"peak-marker\" data-space=\"{}\" data-step=\"{}\"><line class=\"peak-step\" "
        "stroke=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"line-label "
        "peak-label\" fill=\"{}\" x=\"{}\" y=\"{}\"{}>{}</text><title>{}</title></g>\n",
        chart.series[s].space, peak.step, dark, Px(peak.x), Px(peak.label_y - 10), Px(peak.x),
        Px(bottom), dark,
        Px(peak.label_x), Px(peak.label_y), peak.label_end ? " text-anchor=\"end\"" : "",
        XmlEscape(peak.label), XmlEscape(peak.full_label));
  }
  out += "<line id=\"live-cursor\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"0\" visibility=\"hidden\"/>\n";
  out += "</svg>\n";
  return out;
}

}  // namespace memplan::memmap
