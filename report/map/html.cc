#include "report/map/html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "report/map/format.h"
#include "report/map/svg.h"

namespace memplan {
namespace {

using memmap::FormatBytes;
using memmap::FormatCoord;
using memmap::JsonString;
using memmap::SpaceName;
using memmap::XmlEscape;

// Live-bytes chart geometry (pixels), below the map and on its time axis.
constexpr double kLiveTop = 26;
constexpr double kLiveHeight = 130;
constexpr double kLiveBottomMargin = 34;
// The curve is drawn exactly while it has at most this many steps per pixel
// column; beyond that, as the per-column maximum.
constexpr double kExactStepsPerPixel = 2;

constexpr std::string_view kCss =
    "body{font-family:sans-serif;margin:16px;color:#222;background:#f7f7f7}"
    "h1{font-size:18px;margin:0 0 10px}"
    "h2{font-size:13px;margin:14px 0 4px;color:#444}"
    "table{border-collapse:collapse;font-size:12px;margin:0 18px 8px 0;"
    "display:inline-table;vertical-align:top;background:#fff}"
    "th,td{padding:2px 8px;text-align:left;border-bottom:1px solid #e4e4e4}"
    "thead th{background:#eee}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".figure{background:#fff;border:1px solid #ddd;display:inline-block}"
    ".figure svg{display:block}"
    "#tip{position:fixed;z-index:10;background:#fff;border:1px solid #888;border-radius:3px;"
    "padding:5px 8px;font-size:12px;max-width:440px;pointer-events:none;"
    "box-shadow:0 2px 6px rgba(0,0,0,.25);overflow-wrap:anywhere}"
    "#tip .head{font-weight:bold;margin-bottom:2px}"
    ".live-area{fill:#4e79a7;fill-opacity:0.25;stroke:#4e79a7;stroke-width:1}"
    "#live-cursor{stroke:#000;stroke-width:1;stroke-opacity:0.5}";

// Page script: hover tooltips, highlight and time cursor. Reads the JSON in
// #memplan-data; builds tooltips with textContent only.
constexpr std::string_view kScript = R"JS((function () {
  "use strict";
  var D = JSON.parse(document.getElementById("memplan-data").textContent);
  var map = document.querySelector("#map svg");
  var live = document.querySelector("#live svg");
  var tip = document.getElementById("tip");
  var hl = document.getElementById("map-hl");
  var cur = document.getElementById("map-cursor");
  var lcur = document.getElementById("live-cursor");
  var units = ["B", "KiB", "MiB", "GiB", "TiB"];
  var spaces = {};
  D.spaces.forEach(function (s) { spaces[s[0]] = s[1]; });
  function trim(s) {
    if (s.indexOf(".") >= 0) s = s.replace(/0+$/, "").replace(/\.$/, "");
    return s === "-0" ? "0" : s;
  }
  function bytes(b) {
    if (b === 0) return "0 B";
    var u = 0;
    while (u < 4 && Math.abs(b) >= Math.pow(1024, u + 1)) u++;
    return trim((b / Math.pow(1024, u)).toFixed(2)) + " " + units[u];
  }
  function exact(b) { return bytes(b) + " (" + b + " B)"; }
  function spaceName(id) { return (id in spaces ? spaces[id] + " " : "") + "(" + id + ")"; }
  function svgPoint(el, e) {
    var p = el.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    return p.matrixTransform(el.getScreenCTM().inverse());
  }
  function timeX(t) { return D.plotX + t / D.tmax * D.plotW; }
  function showTip(lines, e) {
    tip.textContent = "";
    lines.forEach(function (text, i) {
      var div = document.createElement("div");
      div.textContent = text;
      if (i === 0) div.className = "head";
      tip.appendChild(div);
    });
    tip.hidden = false;
    var r = tip.getBoundingClientRect();
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + r.width > window.innerWidth - 4) x = e.clientX - r.width - 14;
    if (y + r.height > window.innerHeight - 4) y = e.clientY - r.height - 14;
    tip.style.left = Math.max(4, x) + "px";
    tip.style.top = Math.max(4, y) + "px";
  }
  function hide(el) { el.setAttribute("visibility", "hidden"); }
  function clear() { tip.hidden = true; hide(hl); hide(cur); hide(lcur); }
  function box(el, x, y, w, h) {
    el.setAttribute("x", x); el.setAttribute("y", y);
    el.setAttribute("width", Math.max(w, 1)); el.setAttribute("height", Math.max(h, 1));
    el.setAttribute("visibility", "visible");
  }
  function cursor(t) {
    var x = timeX(Math.floor(t));
    [[cur, D.cursorTop, D.cursorBottom], [lcur, D.live.y, D.live.y + D.live.h]].forEach(function (c) {
      c[0].setAttribute("x1", x); c[0].setAttribute("x2", x);
      c[0].setAttribute("y1", c[1]); c[0].setAttribute("y2", c[2]);
      c[0].setAttribute("visibility", "visible");
    });
  }
  function inside(p, r) { return p.x >= r.x && p.x <= r.x + r.w && p.y >= r.y && p.y <= r.y + r.h; }
  // The segment under (t, a), else the nearest within 3 pixels.
  function findSegment(P, t, a) {
    var s = P.segs, tolT = 3 * D.tmax / D.plotW, tolA = 3 * P.top / P.h;
    var best = -1, bestD = Infinity;
    for (var i = 0; i < s.length; i += 5) {
      var off = s[i + 2], size = D.buffers[s[i]][1], st = s[i + 3], en = s[i + 4] + 1;
      var dt = t < st ? st - t : (t > en ? t - en : 0);
      var da = a < off ? off - a : (a > off + size ? a - off - size : 0);
      if (dt > tolT || da > tolA) continue;
      var d = dt / tolT + da / tolA;
      if (d < bestD) { bestD = d; best = i; if (d === 0) break; }
    }
    return best;
  }
  function segmentTip(P, i) {
    var s = P.segs, b = D.buffers[s[i]];
    var lines = [b[0]];
    if (b[6].length) lines.push("values: " + b[6].join(", ") + (b[7] ? " (+" + b[7] + " more)" : ""));
    lines.push("size " + exact(b[1]));
    lines.push("live [" + b[2] + ", " + b[3] + "]" +
               (b[5] > 1 ? ", this segment [" + s[i + 3] + ", " + s[i + 4] + "]" : ""));
    lines.push("pool " + D.pools[b[4]] + ", space " + spaceName(P.space));
    lines.push("offset " + exact(s[i + 2]));
    return lines;
  }
  function copyTip(c) {
    var k = D.copies[c], b = D.buffers[k[0]];
    return [(k[1] ? "eviction of " : "prefetch of ") + (b ? b[0] : "buffer " + k[0]),
            "space " + spaceName(k[2]) + " -> " + spaceName(k[3]),
            "copy-start " + k[4] + ", copy-done " + k[5], exact(k[6])];
  }
  map.addEventListener("mousemove", function (e) {
    var p = svgPoint(map, e);
    for (var n = 0; n < D.panels.length; n++) {
      var P = D.panels[n];
      if (inside(p, P)) {
        var t = (p.x - P.x) / P.w * D.tmax, a = (P.y + P.h - p.y) / P.h * P.top;
        cursor(t);
        var i = findSegment(P, t, a);
        if (i < 0) { tip.hidden = true; hide(hl); return; }
        var s = P.segs, size = D.buffers[s[i]][1];
        var y0 = P.y + P.h - (s[i + 2] + size) / P.top * P.h;
        box(hl, timeX(s[i + 3]), y0, timeX(s[i + 4] + 1) - timeX(s[i + 3]), size / P.top * P.h);
        showTip(segmentTip(P, i), e);
        return;
      }
      var L = P.lane;
      if (L && inside(p, L)) {
        var tl = (p.x - L.x) / L.w * D.tmax, row = Math.floor((p.y - L.y) / D.laneRowPitch);
        cursor(tl);
        for (var j = 0; j < L.slots.length; j += 2) {
          var k = D.copies[L.slots[j]];
          if (L.slots[j + 1] === row && k[4] <= tl && tl < k[5] + 1) {
            // A copy issued before the first op (start -1) is drawn from step 0.
            var k0 = Math.max(k[4], 0);
            box(hl, timeX(k0), L.y + row * D.laneRowPitch, timeX(k[5] + 1) - timeX(k0),
                D.laneRowPitch - 1);
            showTip(copyTip(L.slots[j]), e);
            return;
          }
        }
        tip.hidden = true; hide(hl);
        return;
      }
    }
    clear();
  });
  map.addEventListener("mouseleave", clear);
  live.addEventListener("mousemove", function (e) {
    var p = svgPoint(live, e), V = D.live;
    if (!inside(p, V)) { clear(); return; }
    var t = (p.x - V.x) / V.w * D.tmax;
    cursor(t);
    var v = V.values, lo = 0, hi = v.length / 2 - 1;
    while (lo < hi) {  // last entry starting at or before t
      var mid = (lo + hi + 1) >> 1;
      if (v[2 * mid] <= t) lo = mid; else hi = mid - 1;
    }
    var lines = [V.exact ? "time step " + Math.floor(t) : "time steps " + v[2 * lo] + " and on, max",
                 "live transient bytes " + exact(v[2 * lo + 1])];
    if (D.lowerBound > 0) {
      lines.push(trim((100 * v[2 * lo + 1] / D.lowerBound).toFixed(1)) + " % of the lower bound");
    }
    showTip(lines, e);
  });
  live.addEventListener("mouseleave", clear);
})();
)JS";

std::string FormatSeconds(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  const double magnitude = std::abs(seconds);
  if (magnitude == 0) return "0 s";
  if (magnitude < 1e-3) return fmt::format("{:.4g} us", seconds * 1e6);
  if (magnitude < 1) return fmt::format("{:.4g} ms", seconds * 1e3);
  return fmt::format("{:.4g} s", seconds);
}

std::string BytesCell(Bytes bytes) {
  return fmt::format("<td class=\"n\">{}</td>", XmlEscape(FormatBytes(bytes)));
}

void AppendRow(std::string& out, std::string_view key, const std::string& html_value) {
  out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", key, html_value);
}

void AppendSummary(std::string& out, const BufferSet& buffers, const Plan& plan) {
  out += "<table class=\"summary\">\n";
  AppendRow(out, "input", XmlEscape(plan.input.empty() ? buffers.input : plan.input));
  AppendRow(out, "algorithm", XmlEscape(plan.algorithm));
  AppendRow(out, "buffers", fmt::format("{}", buffers.buffers.size()));
  AppendRow(out, "time steps", fmt::format("{}", plan.time_steps));
  AppendRow(out, "transient peak",
            fmt::format("{} ({} B)", FormatBytes(plan.peak), plan.peak));
  AppendRow(out, "lower bound",
            fmt::format("{} ({} B)", FormatBytes(plan.lower_bound), plan.lower_bound));
  AppendRow(out, "over the bound", memmap::FormatPercentOver(plan.peak, plan.lower_bound));
  AppendRow(out, "verified", plan.verified ? "yes" : "no");
  for (const SpaceInfo& space : plan.spaces) {
    std::string text = fmt::format("peak {}", FormatBytes(space.peak));
    if (space.capacity) text += fmt::format(" of {}", FormatBytes(*space.capacity));
    AppendRow(out, "space",
              fmt::format("{} ({}): {}", XmlEscape(space.name), space.id, XmlEscape(text)));
  }
  out += "</table>\n";

  // With regions, pools may exist over a time range only (and then share
  // bytes with pools never alive at the same time): a column says when.
  const bool timed = plan.regions.has_value();
  out += fmt::format(
      "<table class=\"pools\"><thead><tr><th>pool</th><th>space</th>{}<th>offset</th>"
      "<th>size</th><th>buffers</th><th>bytes</th><th>lower bound</th><th>over</th></tr>"
      "</thead><tbody>\n",
      timed ? "<th>time</th>" : "");
  for (const PoolInfo& pool : plan.pools) {
    std::string time;
    if (timed) {
      time = pool.start && pool.end ? fmt::format("<td>[{}, {}]</td>", *pool.start, *pool.end)
                                    : std::string("<td>whole run</td>");
    }
    out += fmt::format("<tr><td>{}</td><td>{}</td>{}{}{}<td class=\"n\">{}</td>{}{}"
                       "<td class=\"n\">{}</td></tr>\n",
                       XmlEscape(pool.name), XmlEscape(SpaceName(plan, pool.space)), time,
                       BytesCell(pool.offset), BytesCell(pool.size), pool.buffers,
                       BytesCell(pool.total_bytes), BytesCell(pool.lower_bound),
                       memmap::FormatPercentOver(pool.size, pool.lower_bound));
  }
  if (plan.pools.empty()) {
    out += fmt::format("<tr><td colspan=\"{}\">no pools reported</td></tr>\n", timed ? 9 : 8);
  }
  out += "</tbody></table>\n";

  if (plan.msa) {
    const MsaStats& msa = *plan.msa;
    out += "<table class=\"msa\">\n";
    AppendRow(out, "estimated time", FormatSeconds(msa.estimated_time_s));
    AppendRow(out, "all in default memory", FormatSeconds(msa.time_all_default_s));
    AppendRow(out, "all in fast memory", FormatSeconds(msa.time_all_fast_s));
    AppendRow(out, "prefetches",
              fmt::format("{} ({})", msa.prefetches, FormatBytes(msa.prefetch_bytes)));
    AppendRow(out, "evictions",
              fmt::format("{} ({})", msa.evictions, FormatBytes(msa.eviction_bytes)));
    AppendRow(out, "max outstanding copies", fmt::format("{}", msa.max_outstanding_copies));
    out += "</table>\n";
  }
}

// The live curve as (start, bytes) pairs: the exact steps when they fit the
// pixel budget, else the maximum over each pixel column's time range.
struct LiveCurve {
  bool exact = true;
  std::vector<memmap::LiveStep> points;
  Bytes max = 0;
};

LiveCurve BuildLiveCurve(const std::vector<memmap::LiveStep>& steps, TimeStep time_top,
                         double plot_w) {
  LiveCurve curve;
  for (const memmap::LiveStep& step : steps) curve.max = std::max(curve.max, step.bytes);
  const auto columns = static_cast<std::size_t>(std::max(1.0, std::floor(plot_w)));
  if (static_cast<double>(steps.size()) <= kExactStepsPerPixel * plot_w) {
    curve.points = steps;
    return curve;
  }
  curve.exact = false;
  const double per_column = static_cast<double>(time_top) / static_cast<double>(columns);
  std::vector<Bytes> column_max(columns, 0);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const double begin = static_cast<double>(steps[i].start);
    const double end =
        i + 1 < steps.size() ? static_cast<double>(steps[i + 1].start) : static_cast<double>(time_top);
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
    if (!curve.points.empty() && curve.points.back().start == start) continue;
    curve.points.push_back({start, column_max[c]});
  }
  return curve;
}

// The live-bytes chart: an SVG on the map's time axis.
std::string RenderLiveChart(const memmap::MapLayout& layout, const LiveCurve& curve,
                            Bytes lower_bound, const memmap::AddressAxis& axis) {
  std::string out;
  const double x0 = layout.plot_x;
  const double w = layout.plot_w;
  const double y0 = kLiveTop;
  const double h = kLiveHeight;
  const double bottom = y0 + h;
  const double height = bottom + kLiveBottomMargin;
  const auto C = [](double v) { return FormatCoord(v); };
  const auto y_of = [&](double bytes) { return bottom - bytes / axis.top * h; };
  out += fmt::format(
      "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"live transient bytes over time\">\n",
      C(layout.width), C(height), C(layout.width), C(height));
  out +=
      "<style>text{font-family:sans-serif;font-size:11px;fill:#333}"
      ".ptitle{font-size:12px;font-weight:bold;fill:#222}.grid{stroke:#ececec}"
      ".plot{fill:#fff;stroke:#999}.axis-name{font-style:italic;fill:#666}"
      ".bound{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4}"
      ".line-label{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
      "</style>\n";
  out += fmt::format("<text class=\"ptitle\" x=\"{}\" y=\"{}\">live transient bytes · max {}{}</text>\n",
                     C(x0), C(y0 - 8), FormatBytes(curve.max),
                     curve.exact ? "" : " (per pixel column: the maximum)");
  out += fmt::format("<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", C(x0),
                     C(y0), C(w), C(h));
  for (const memmap::Tick& tick : memmap::AddressTicks(axis, bottom, h)) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        C(x0), C(tick.pos), C(x0 + w), C(tick.pos), C(x0 - 6), C(tick.pos + 4), tick.label);
  }
  for (const memmap::Tick& tick : layout.time_ticks) {
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        C(tick.pos), C(y0), C(tick.pos), C(bottom), C(tick.pos), C(bottom + 16), tick.label);
  }
  out += fmt::format(
      "<text class=\"axis-name\" x=\"{}\" y=\"{}\" text-anchor=\"end\">time step</text>\n",
      C(x0 - 6), C(bottom + 28));
  // Step curve: each point holds its value until the next point's start.
  out += fmt::format("<path class=\"live-area\" d=\"M{} {}", C(x0), C(bottom));
  for (std::size_t i = 0; i < curve.points.size(); ++i) {
    const TimeStep end = i + 1 < curve.points.size() ? curve.points[i + 1].start : layout.time_top;
    out += fmt::format("V{}H{}", C(y_of(static_cast<double>(curve.points[i].bytes))),
                       C(memmap::TimeX(layout, static_cast<double>(std::min(end, layout.time_top)))));
  }
  out += fmt::format("V{}Z\"/>\n", C(bottom));
  if (lower_bound > 0) {
    const double y = y_of(static_cast<double>(lower_bound));
    out += fmt::format(
        "<line class=\"bound\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text class=\"line-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">lower bound {}</text>\n",
        C(x0), C(y), C(x0 + w), C(y), C(x0 + w - 6), C(y - 4 < y0 + 10 ? y + 12 : y - 4),
        FormatBytes(lower_bound));
  }
  out += "<line id=\"live-cursor\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"0\" visibility=\"hidden\"/>\n";
  out += "</svg>\n";
  return out;
}

// Hover data for the page script (see kScript for the field order).
std::string BuildData(const memmap::MapLayout& layout, const BufferSet& buffers, const Plan& plan,
                      const MapOptions& options, const LiveCurve& curve,
                      const memmap::AddressAxis& live_axis) {
  const auto C = [](double v) { return FormatCoord(v); };
  std::string out = "{";
  out += fmt::format(
      "\"tmax\":{},\"plotX\":{},\"plotW\":{},\"lowerBound\":{},\"laneRowPitch\":{},",
      layout.time_top, C(layout.plot_x), C(layout.plot_w), plan.lower_bound,
      C(memmap::kLaneRowPitch));
  out += fmt::format("\"cursorTop\":{},\"cursorBottom\":{},",
                     C(layout.panels.front().plot.y),
                     C(layout.panels.back().plot.y + layout.panels.back().plot.h));
  // Pools (names indexed by buffers) and spaces.
  // Pools are listed by first use; a region allocation's name says what it is.
  std::vector<std::string> pools;
  std::map<std::string, int> pool_index;
  std::vector<int> pool_of(buffers.buffers.size(), 0);
  for (std::size_t i = 0; i < buffers.buffers.size(); ++i) {
    const std::string pool = memmap::PoolOf(buffers, plan, static_cast<BufferId>(i));
    auto [it, added] = pool_index.emplace(pool, static_cast<int>(pools.size()));
    if (added) pools.push_back(memmap::PoolLabel(plan, pool));
    pool_of[i] = it->second;
  }
  out += "\"pools\":[";
  for (std::size_t i = 0; i < pools.size(); ++i) {
    if (i > 0) out += ',';
    out += JsonString(pools[i]);
  }
  out += "],\"spaces\":[";
  for (std::size_t i = 0; i < layout.panels.size(); ++i) {
    const MemorySpace space = layout.panels[i].space;
    out += fmt::format("{}[{},{}]", i ? "," : "", space, JsonString(SpaceName(plan, space)));
  }
  // Buffers: [name, size, start, end, pool, segments, [values], values left out].
  out += "],\n\"buffers\":[";
  for (std::size_t i = 0; i < buffers.buffers.size(); ++i) {
    const Buffer& buffer = buffers.buffers[i];
    const std::size_t segments =
        i < plan.placements.size() ? plan.placements[i].allocations.size() : 0;
    out += fmt::format("{}[{},{},{},{},{},{},[", i ? ",\n" : "",
                       JsonString(buffer.name.empty() ? fmt::format("buffer {}", i) : buffer.name),
                       buffer.size, buffer.start, buffer.end, pool_of[i], segments);
    std::size_t listed = 0;
    if (options.program != nullptr) {
      for (ValueId v : buffer.values) {
        if (listed == 8) break;
        if (v < 0 || static_cast<std::size_t>(v) >= options.program->values.size()) continue;
        if (listed++ > 0) out += ',';
        out += JsonString("%" + options.program->values[static_cast<std::size_t>(v)].name);
      }
    }
    out += fmt::format("],{}]", options.program != nullptr ? buffer.values.size() - listed : 0);
  }
  // Copies: [buffer, kind (0 prefetch, 1 eviction), from, to, start, done, bytes].
  out += "],\n\"copies\":[";
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    const AsyncCopy& c = plan.copies[i];
    out += fmt::format("{}[{},{},{},{},{},{},{}]", i ? "," : "", c.buffer,
                       c.kind == CopyKind::kEviction ? 1 : 0, c.from_space, c.to_space, c.start,
                       c.done, c.bytes);
  }
  // Panels: plot box, axis top, segments [buffer, allocation, offset, start, end].
  out += "],\n\"panels\":[";
  for (std::size_t n = 0; n < layout.panels.size(); ++n) {
    const memmap::Panel& panel = layout.panels[n];
    out += fmt::format("{}{{\"space\":{},\"x\":{},\"y\":{},\"w\":{},\"h\":{},\"top\":{},\"segs\":[",
                       n ? "," : "", panel.space, C(panel.plot.x), C(panel.plot.y),
                       C(panel.plot.w), C(panel.plot.h), C(panel.axis.top));
    bool first = true;
    const std::size_t placed = std::min(buffers.buffers.size(), plan.placements.size());
    for (std::size_t b = 0; b < placed; ++b) {
      if (buffers.buffers[b].size <= 0) continue;
      const std::vector<Allocation>& allocations = plan.placements[b].allocations;
      for (std::size_t j = 0; j < allocations.size(); ++j) {
        const Allocation& a = allocations[j];
        if (a.space != panel.space || a.end < a.start) continue;
        out += fmt::format("{}{},{},{},{},{}", first ? "" : ",", b, j, a.offset, a.start, a.end);
        first = false;
      }
    }
    out += "]";
    if (panel.lane.h > 0) {
      out += fmt::format(",\"lane\":{{\"x\":{},\"y\":{},\"w\":{},\"h\":{},\"slots\":[",
                         C(panel.lane.x), C(panel.lane.y), C(panel.lane.w), C(panel.lane.h));
      for (std::size_t k = 0; k < panel.lane_slots.size(); ++k) {
        out += fmt::format("{}{},{}", k ? "," : "", panel.lane_slots[k].first,
                           panel.lane_slots[k].second);
      }
      out += "]}";
    }
    out += "}";
  }
  // Live curve: plot box, axis top, [start, bytes] pairs.
  out += fmt::format("],\n\"live\":{{\"x\":{},\"y\":{},\"w\":{},\"h\":{},\"top\":{},\"exact\":{},\"values\":[",
                     C(layout.plot_x), C(kLiveTop), C(layout.plot_w), C(kLiveHeight),
                     C(live_axis.top), curve.exact ? "true" : "false");
  for (std::size_t i = 0; i < curve.points.size(); ++i) {
    out += fmt::format("{}{},{}", i ? "," : "", curve.points[i].start, curve.points[i].bytes);
  }
  out += "]}}";
  return out;
}

}  // namespace

std::string RenderHtmlMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options) {
  const memmap::MapLayout layout = memmap::LayoutMap(buffers, plan, options);
  const LiveCurve curve =
      BuildLiveCurve(memmap::TransientLiveProfile(buffers, plan), layout.time_top, layout.plot_w);
  const memmap::AddressAxis live_axis =
      memmap::NiceAddressAxis(static_cast<double>(std::max(curve.max, plan.lower_bound)), 4);

  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width\">\n";
  out += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
                     XmlEscape(layout.title), kCss);
  out += fmt::format("<header>\n<h1>{}</h1>\n", XmlEscape(layout.title));
  AppendSummary(out, buffers, plan);
  out += "</header>\n<h2>memory map: time step on x, address on y; hover a buffer</h2>\n";
  out += "<div id=\"map\" class=\"figure\">\n";
  out += memmap::RenderSvgElement(layout, buffers, plan, options, /*standalone=*/false);
  out += "</div>\n<div id=\"live\" class=\"figure\">\n";
  out += RenderLiveChart(layout, curve, plan.lower_bound, live_axis);
  out += "</div>\n<div id=\"tip\" hidden></div>\n";
  out += "<script type=\"application/json\" id=\"memplan-data\">";
  out += BuildData(layout, buffers, plan, options, curve, live_axis);
  out += "</script>\n<script>\n";
  out += kScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace memplan
