#include "report/sweep/sweep_chart.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "fmt/format.h"
#include "io/byte_size.h"
#include "report/map/format.h"
#include "report/map/layout.h"
#include "report/sweep/sweep_table.h"

namespace memplan {
namespace {

using memmap::FormatCoord;
using memmap::XmlEscape;

constexpr double kWidth = 760;
constexpr double kPanelHeight = 330;
constexpr double kPlotX = 80;
constexpr double kPlotW = 470;  // the legend takes the right-hand side
constexpr double kPlotTop = 44;
constexpr double kPlotH = 220;
constexpr std::string_view kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                        "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

// A line of the chart: one y value per x category (nullopt: a gap).
struct Series {
  std::string name;
  std::string color;
  bool dashed = false;
  std::vector<std::optional<double>> values;
};

struct Panel {
  std::string title;
  std::string x_title;
  std::vector<std::string> categories;
  bool bytes = true;  // y in bytes, else seconds (drawn in the unit of the largest)
  std::vector<Series> series;
  // Per category: why its points over capacity do not fit and what they
  // need, one line each ("" when all fit).
  std::vector<std::string> over;
};

// "--dim batch=8: default memory needs ... over --capacity 1MiB" for a row
// over capacity, for a tooltip.
std::string OverNote(const SweepRow& row) {
  const std::string point = DescribeSweepPoint(row.point);
  return (point.empty() ? std::string() : point + ": ") + SweepCapacityReason(*row.over_capacity);
}

void AddOverNote(std::string& notes, const SweepRow& row) {
  if (!row.over_capacity) return;
  if (!notes.empty()) notes += "\n";
  notes += OverNote(row);
}

std::string DimsLabel(const SweepPoint& point, bool with_names) {
  std::string text;
  for (const auto& [name, value] : point.dims) {
    if (!text.empty()) text += ", ";
    text += with_names ? fmt::format("{}={}", name, value) : std::to_string(value);
  }
  return text;
}

std::string FastLabel(const std::optional<Bytes>& bytes) {
  return bytes ? FormatBytes(*bytes) : std::string("no fast memory");
}

// Distinct keys in first-seen order.
template <typename Key>
std::vector<Key> Distinct(const std::vector<SweepRow>& rows, Key (*key)(const SweepRow&)) {
  std::vector<Key> keys;
  for (const SweepRow& row : rows) {
    const Key k = key(row);
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
  return keys;
}

std::vector<std::pair<std::string, std::int64_t>> DimsKey(const SweepRow& row) {
  return row.point.dims;
}
std::optional<Bytes> FastKey(const SweepRow& row) { return row.point.fast_memory; }

// The x position of a row in the dims panel: the value of its first dim.
std::optional<std::int64_t> FirstDimKey(const SweepRow& row) {
  if (row.point.dims.empty()) return std::nullopt;
  return row.point.dims.front().second;
}

// The line a row belongs to in the dims panel: its other dims and its
// fast-memory size.
std::pair<std::vector<std::pair<std::string, std::int64_t>>, std::optional<Bytes>> LineKey(
    const SweepRow& row) {
  std::vector<std::pair<std::string, std::int64_t>> rest;
  if (row.point.dims.size() > 1) rest.assign(row.point.dims.begin() + 1, row.point.dims.end());
  return {rest, row.point.fast_memory};
}

Panel DimsPanel(const std::vector<SweepRow>& rows) {
  const auto xs = Distinct(rows, &FirstDimKey);
  const auto lines = Distinct(rows, &LineKey);
  const bool many_rest = Distinct(rows, &DimsKey).size() > xs.size();
  const bool many_sizes = Distinct(rows, &FastKey).size() > 1;
  Panel panel;
  panel.bytes = true;
  panel.x_title = !rows.empty() && !rows.front().point.dims.empty()
                      ? rows.front().point.dims.front().first
                      : "dims";
  panel.title = fmt::format("transient extent (default-memory activations) vs {}", panel.x_title);
  for (const auto& x : xs) panel.categories.push_back(x ? std::to_string(*x) : "(as given)");
  for (size_t l = 0; l < lines.size(); ++l) {
    const auto& [rest, size] = lines[l];
    std::string suffix;
    for (const auto& [name, value] : rest) {
      if (many_rest) suffix += fmt::format(", {}={}", name, value);
    }
    if (many_sizes) suffix += ", fast " + FastLabel(size);
    Series peak{"transient extent" + suffix, std::string(kColors[l % std::size(kColors)]), false, {}};
    Series bound{"lower bound" + suffix, peak.color, true, {}};
    for (const auto& x : xs) {
      std::optional<double> p, b;
      for (const SweepRow& row : rows) {
        if (FirstDimKey(row) != x || LineKey(row) != lines[l] || row.over_capacity) continue;
        p = static_cast<double>(row.peak);
        b = static_cast<double>(row.lower_bound);
      }
      peak.values.push_back(p);
      bound.values.push_back(b);
    }
    panel.series.push_back(std::move(peak));
    panel.series.push_back(std::move(bound));
  }
  for (const auto& x : xs) {
    std::string& notes = panel.over.emplace_back();
    for (const SweepRow& row : rows) {
      if (FirstDimKey(row) == x) AddOverNote(notes, row);
    }
  }
  return panel;
}

Panel FastPanel(const std::vector<SweepRow>& rows) {
  const auto dims = Distinct(rows, &DimsKey);
  const auto sizes = Distinct(rows, &FastKey);
  Panel panel;
  panel.bytes = false;
  panel.x_title = "fast-memory size";
  panel.title = "estimated run time vs fast-memory size";
  for (const auto& size : sizes) panel.categories.push_back(FastLabel(size));
  for (size_t d = 0; d < dims.size(); ++d) {
    SweepPoint point;
    point.dims = dims[d];
    Series time{dims.size() > 1 ? DimsLabel(point, true) : "estimated time",
                std::string(kColors[d % std::size(kColors)]), false, {}};
    Series bound{"time bound", "#2ca02c", true, {}};
    Series all_default{"all in default memory", "#7f7f7f", true, {}};
    Series all_fast{"all in fast memory", "#bcbd22", true, {}};
    for (const auto& size : sizes) {
      std::optional<double> t, lowest, slow, fast;
      for (const SweepRow& row : rows) {
        if (row.point.dims != dims[d] || row.point.fast_memory != size || !row.msa ||
            row.over_capacity) {
          continue;
        }
        t = row.msa->estimated_time_s;
        lowest = row.msa->time_bound_s;
        slow = row.msa->time_all_default_s;
        fast = row.msa->time_all_fast_s;
      }
      time.values.push_back(t);
      bound.values.push_back(lowest);
      all_default.values.push_back(slow);
      all_fast.values.push_back(fast);
    }
    panel.series.push_back(std::move(time));
    if (dims.size() == 1) {
      panel.series.push_back(std::move(bound));
      panel.series.push_back(std::move(all_default));
      panel.series.push_back(std::move(all_fast));
    }
  }
  for (const auto& size : sizes) {
    std::string& notes = panel.over.emplace_back();
    for (const SweepRow& row : rows) {
      if (row.point.fast_memory == size) AddOverNote(notes, row);
    }
  }
  return panel;
}

// The unit a time axis up to `seconds` is drawn in, as memmap::FormatSeconds
// picks it: its name and size in seconds, e.g. {"ms", 1e-3} for 0.0025.
std::pair<std::string, double> DurationUnit(double seconds) {
  if (!(seconds > 0) || seconds >= 1) return {"s", 1};
  if (seconds >= 1e-3) return {"ms", 1e-3};
  return {"us", 1e-6};
}

// A 1-2-5 step giving at most `max_steps` steps over [0, max_value].
double NiceStep(double max_value, int max_steps) {
  if (!(max_value > 0)) return 1;
  const double raw = max_value / max_steps;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  }
  return 10 * power;
}

std::string RenderPanel(const Panel& panel, double top) {
  double max_value = 0;
  for (const Series& s : panel.series) {
    for (const auto& v : s.values) {
      if (v) max_value = std::max(max_value, *v);
    }
  }
  // Times are drawn in one unit (ms, us, ...) chosen by the largest.
  const auto [unit_name, unit] = panel.bytes ? std::pair<std::string, double>{"B", 1.0}
                                             : DurationUnit(max_value);
  const double bottom = top + kPlotTop + kPlotH;
  std::vector<memmap::Tick> ticks;
  double y_top = 1;
  if (panel.bytes) {
    const memmap::AddressAxis axis = memmap::NiceAddressAxis(max_value, 6);
    y_top = axis.top;
    ticks = memmap::AddressTicks(axis, bottom, kPlotH);
  } else {
    const double step = NiceStep(max_value / unit, 6);
    const double steps = std::max(1.0, std::ceil(max_value / unit / step - 1e-9));
    y_top = steps * step * unit;
    for (int k = 0; k <= static_cast<int>(steps); ++k) {
      ticks.push_back({bottom - k * step * unit / y_top * kPlotH,
                       fmt::format("{:.4g} {}", k * step, unit_name)});
    }
  }
  const auto y_of = [&](double v) { return bottom - v / y_top * kPlotH; };
  const size_t n = panel.categories.size();
  const auto x_of = [&](size_t i) {
    return n == 1 ? kPlotX + kPlotW / 2 : kPlotX + 20 + (kPlotW - 40) * i / (n - 1.0);
  };

  std::string svg = fmt::format("<g class=\"panel\">\n<text x=\"{}\" y=\"{}\" font-size=\"14\" "
                                "font-weight=\"bold\">{}</text>\n",
                                FormatCoord(kPlotX), FormatCoord(top + 24), XmlEscape(panel.title));
  for (const memmap::Tick& tick : ticks) {
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#e0e0e0\"/>"
        "<text x=\"{3}\" y=\"{4}\" text-anchor=\"end\">{5}</text>\n",
        FormatCoord(kPlotX), FormatCoord(tick.pos), FormatCoord(kPlotX + kPlotW),
        FormatCoord(kPlotX - 6), FormatCoord(tick.pos + 4), XmlEscape(tick.label));
  }
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                     "stroke=\"#404040\"/>\n",
                     FormatCoord(kPlotX), FormatCoord(top + kPlotTop), FormatCoord(kPlotW),
                     FormatCoord(kPlotH));
  // Category labels, thinned to at most about 12 so they stay legible.
  const size_t every = std::max<size_t>(1, (n + 11) / 12);
  for (size_t i = 0; i < n; ++i) {
    if (i % every != 0 && i + 1 != n) continue;
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       FormatCoord(x_of(i)), FormatCoord(bottom + 16),
                       XmlEscape(panel.categories[i]));
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     FormatCoord(kPlotX + kPlotW / 2), FormatCoord(bottom + 36),
                     XmlEscape(panel.x_title));
  for (size_t s = 0; s < panel.series.size(); ++s) {
    const Series& series = panel.series[s];
    const std::string dash = series.dashed ? " stroke-dasharray=\"6 4\"" : "";
    // One polyline per run of points without gaps.
    std::string points;
    const auto flush = [&] {
      if (points.find(' ') != std::string::npos) {
        svg += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n",
                           series.color, dash, points);
      }
      points.clear();
    };
    for (size_t i = 0; i < n; ++i) {
      if (!series.values[i]) {
        flush();
        continue;
      }
      if (!points.empty()) points += ' ';
      points += FormatCoord(x_of(i)) + "," + FormatCoord(y_of(*series.values[i]));
    }
    flush();
    for (size_t i = 0; i < n; ++i) {
      if (!series.values[i]) continue;
      const double v = *series.values[i];
      const std::string value =
          panel.bytes ? BytesAndHuman(static_cast<Bytes>(v)) : memmap::FormatSeconds(v);
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"><title>{}: {} at {}</title></circle>\n",
                         FormatCoord(x_of(i)), FormatCoord(y_of(v)), series.color,
                         XmlEscape(series.name), value, XmlEscape(panel.categories[i]));
    }
    const double ly = top + kPlotTop + 8 + 20.0 * static_cast<double>(s);
    const double lx = kPlotX + kPlotW + 20;
    svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>"
                       "<text x=\"{}\" y=\"{}\">{}</text>\n",
                       FormatCoord(lx), FormatCoord(ly), FormatCoord(lx + 24), FormatCoord(ly),
                       series.color, dash, FormatCoord(lx + 30), FormatCoord(ly + 4),
                       XmlEscape(series.name));
  }
  // A point over capacity: a gap in its line, and a label whose tooltip
  // says what it needs.
  for (size_t i = 0; i < n; ++i) {
    if (panel.over[i].empty()) continue;
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#d62728\">"
                       "does not fit<title>does not fit: {}</title></text>\n",
                       FormatCoord(x_of(i)), FormatCoord(bottom - 8), XmlEscape(panel.over[i]));
  }
  return svg + "</g>\n";
}

}  // namespace

std::string RenderSweepChart(const std::string& input, const std::vector<SweepRow>& rows) {
  std::vector<Panel> panels;
  const bool many_dims = Distinct(rows, &DimsKey).size() > 1;
  const bool many_sizes = Distinct(rows, &FastKey).size() > 1;
  if (many_dims || !many_sizes) panels.push_back(DimsPanel(rows));
  if (many_sizes) panels.push_back(FastPanel(rows));
  const double height = 30 + kPanelHeight * static_cast<double>(panels.size());
  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"20\" font-size=\"13\" fill=\"#404040\">memplan sweep of {3}</text>\n",
      FormatCoord(kWidth), FormatCoord(height), FormatCoord(kPlotX), XmlEscape(input));
  for (size_t p = 0; p < panels.size(); ++p) {
    svg += RenderPanel(panels[p], 30 + kPanelHeight * static_cast<double>(p));
  }
  return svg + "</svg>\n";
}

}  // namespace memplan
