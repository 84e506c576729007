#include "report/map/html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ir/plural.h"
#include "report/map/format.h"
#include "report/map/live_chart.h"
#include "report/map/live_series.h"
#include "report/map/svg.h"

namespace memplan {
namespace {

using memmap::FormatBytes;
using memmap::FormatCoord;
using memmap::FormatSeconds;
using memmap::JsonString;
using memmap::SpaceName;
using memmap::XmlEscape;

constexpr std::string_view kCss =
    "body{font-family:sans-serif;margin:16px;color:#222;background:#f7f7f7}"
    "h1{font-size:18px;margin:0 0 10px}"
    "h2{font-size:13px;margin:14px 0 4px;color:#444}"
    "table{border-collapse:collapse;font-size:12px;margin:0 18px 8px 0;"
    "display:inline-table;vertical-align:top;background:#fff}"
    "th,td{padding:2px 8px;text-align:left;border-bottom:1px solid #e4e4e4}"
    "thead th{background:#eee}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    // Figures fit the window: the map scales with it, down to a width below
    // which it scrolls inside its own box rather than the page.
    ".figure{background:#fff;border:1px solid #ddd;display:block;"
    "overflow-x:auto;margin-bottom:6px}"
    ".figure[hidden]{display:none}"
    ".figure svg{display:block;width:100%;height:auto}"
    ".toggle{display:block;font-size:12px;margin:4px 0 6px}"
    "#tip{position:fixed;z-index:10;background:#fff;border:1px solid #888;border-radius:3px;"
    "padding:5px 8px;font-size:12px;max-width:440px;pointer-events:none;"
    "box-shadow:0 2px 6px rgba(0,0,0,.25);overflow-wrap:anywhere}"
    "#tip .head{font-weight:bold;margin-bottom:2px}";

// Page script: hover tooltips, highlight and time cursor. Reads the JSON in
// #memplan-data; builds tooltips with textContent only.
constexpr std::string_view kScript = R"JS((function () {
  "use strict";
  var D = JSON.parse(document.getElementById("memplan-data").textContent);
  var live = document.querySelector("#live svg");
  var tip = document.getElementById("tip");
  var lcur = document.getElementById("live-cursor");
  // The map views: everything, and (when the page has it) activations only.
  var views = [{fig: document.getElementById("map"), prefix: "map", P: D}];
  if (D.act) views.push({fig: document.getElementById("map-act"), prefix: "act", P: D.act});
  views.forEach(function (v) {
    v.svg = v.fig.querySelector("svg");
    v.hl = document.getElementById(v.prefix + "-hl");
    v.cur = document.getElementById(v.prefix + "-cursor");
  });
  var view = views[0];
  var units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  var spaces = {};
  D.spaces.forEach(function (s) { spaces[s[0]] = s[1]; });
  function trim(s) {
    if (s.indexOf(".") >= 0) s = s.replace(/0+$/, "").replace(/\.$/, "");
    return s === "-0" ? "0" : s;
  }
  function bytes(b) {
    if (b === 0) return "0 B";
    var u = 0;
    while (u < 6 && Math.abs(b) >= Math.pow(1024, u + 1)) u++;
    return trim((b / Math.pow(1024, u)).toFixed(2)) + " " + units[u];
  }
  function exact(b) { return Math.abs(b) < 1024 ? bytes(b) : bytes(b) + " (" + b + " B)"; }
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
  function clear() { tip.hidden = true; hide(view.hl); hide(view.cur); hide(lcur); }
  function box(el, x, y, w, h) {
    el.setAttribute("x", x); el.setAttribute("y", y);
    el.setAttribute("width", Math.max(w, 1)); el.setAttribute("height", Math.max(h, 1));
    el.setAttribute("visibility", "visible");
  }
  function cursor(t) {
    var x = timeX(Math.floor(t));
    [[view.cur, view.P.cursorTop, view.P.cursorBottom],
     [lcur, D.live.y, D.live.y + D.live.h]].forEach(function (c) {
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
    if (D.resident.indexOf(b[4]) >= 0) lines.push("reserved for the whole run: this pool is never reused");
    lines.push("offset " + exact(s[i + 2]));
    return lines;
  }
  function copyTip(c) {
    var k = D.copies[c], b = D.buffers[k[0]];
    return [(k[1] ? "eviction of " : "prefetch of ") + (b ? b[0] : "buffer " + k[0]),
            "space " + spaceName(k[2]) + " -> " + spaceName(k[3]),
            "copy-start " + k[4] + ", copy-done " + k[5], exact(k[6])];
  }
  function onMap(e) {
    var p = svgPoint(view.svg, e), panels = view.P.panels;
    for (var n = 0; n < panels.length; n++) {
      var P = panels[n];
      if (inside(p, P)) {
        var t = (p.x - P.x) / P.w * D.tmax, a = (P.y + P.h - p.y) / P.h * P.top;
        cursor(t);
        var i = findSegment(P, t, a);
        if (i < 0) { tip.hidden = true; hide(view.hl); return; }
        var s = P.segs, size = D.buffers[s[i]][1];
        var y0 = P.y + P.h - (s[i + 2] + size) / P.top * P.h;
        box(view.hl, timeX(s[i + 3]), y0, timeX(s[i + 4] + 1) - timeX(s[i + 3]), size / P.top * P.h);
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
            box(view.hl, timeX(k0), L.y + row * D.laneRowPitch, timeX(k[5] + 1) - timeX(k0),
                D.laneRowPitch - 1);
            showTip(copyTip(L.slots[j]), e);
            return;
          }
        }
        tip.hidden = true; hide(view.hl);
        return;
      }
    }
    clear();
  }
  views.forEach(function (v) {
    v.svg.addEventListener("mousemove", onMap);
    v.svg.addEventListener("mouseleave", clear);
  });
  // The activations-only toggle, on by default; the URL hash #all shows the
  // weights too (#activations, or none, the activations only).
  var toggle = document.getElementById("act");
  function show(act) {
    clear();
    view = views[act && views.length > 1 ? 1 : 0];
    views.forEach(function (v) { v.fig.hidden = v !== view; });
    if (toggle) toggle.checked = act;
  }
  if (toggle) {
    toggle.addEventListener("change", function () {
      show(toggle.checked);
      try { history.replaceState(null, "", toggle.checked ? " " : "#all"); } catch (err) {}
    });
    window.addEventListener("hashchange", function () { show(location.hash !== "#all"); });
    show(location.hash !== "#all");
  }
  // The value of a (start, bytes) series at t: the last entry starting at or before t.
  function valueAt(v, t) {
    var lo = 0, hi = v.length / 2 - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (v[2 * mid] <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  live.addEventListener("mousemove", function (e) {
    var p = svgPoint(live, e), V = D.live;
    if (!inside(p, V)) { clear(); return; }
    var t = (p.x - V.x) / V.w * D.tmax;
    cursor(t);
    var lines = [V.exact ? "time step " + Math.floor(t) : "time step " + Math.floor(t) + " (column maximum)"];
    V.series.forEach(function (s) {
      var i = valueAt(s.values, t);
      lines.push(s.name + ": " + exact(s.values[2 * i + 1]));
    });
    if (D.lowerBound > 0) {
      var d = V.series[0].values[2 * valueAt(V.series[0].values, t) + 1];
      lines.push(trim((100 * d / D.lowerBound).toFixed(1)) + " % of the lower bound");
    }
    showTip(lines, e);
  });
  live.addEventListener("mouseleave", clear);
})();
)JS";

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
  AppendRow(out, "transient extent",
            XmlEscape(memmap::FormatBytesExact(plan.peak)));
  AppendRow(out, "lower bound",
            XmlEscape(memmap::FormatBytesExact(plan.lower_bound)));
  AppendRow(out, "over the bound",
            XmlEscape(memmap::FormatPercentOver(plan.peak, plan.lower_bound)));
  AppendRow(out, "verified", plan.verified ? "yes" : "no");
  for (const SpaceInfo& space : plan.spaces) {
    std::string text = fmt::format("used {}", FormatBytes(space.peak));
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
                       XmlEscape(memmap::FormatPercentOver(pool.size, pool.lower_bound)));
  }
  if (plan.pools.empty()) {
    out += fmt::format("<tr><td colspan=\"{}\">no pools reported</td></tr>\n", timed ? 9 : 8);
  }
  out += "</tbody></table>\n";

  if (plan.msa) {
    const MsaStats& msa = *plan.msa;
    out += "<table class=\"msa\">\n";
    AppendRow(out, "estimated time", FormatSeconds(msa.estimated_time_s));
    if (msa.time_bound_s) {
      AppendRow(out, "time bound (no plan is faster)", FormatSeconds(*msa.time_bound_s));
    }
    AppendRow(out, "all in default memory",
              FormatSeconds(msa.time_all_default_s) +
                  (msa.time_all_default_fits ? "" : " (does not fit)"));
    AppendRow(out, "all in fast memory", FormatSeconds(msa.time_all_fast_s));
    AppendRow(out, "prefetches",
              fmt::format("{} ({})", msa.prefetches, FormatBytes(msa.prefetch_bytes)));
    // Window prefetches are not among `prefetches` (ir/plan.h); listed like the summary does.
    if (msa.window_prefetches > 0) {
      AppendRow(out, "window prefetches",
                fmt::format("{} ({})", msa.window_prefetches,
                            FormatBytes(msa.window_prefetch_bytes)));
    }
    if (msa.block) {
      AppendRow(out, "prefetch block",
                XmlEscape(fmt::format("{} at offset {}, {}", FormatBytes(msa.block->size),
                                      memmap::FormatOffset(msa.block->offset),
                                      CountOf(msa.block_prefetches, "block prefetch",
                                              "block prefetches"))));
    }
    AppendRow(out, "evictions",
              fmt::format("{} ({})", msa.evictions, FormatBytes(msa.eviction_bytes)));
    AppendRow(out, "max outstanding copies", fmt::format("{}", msa.max_outstanding_copies));
    out += "</table>\n";
  }
}

// One view's panels for the page script: plot box, axis top, segments
// [buffer, allocation, offset, start, end] flattened, the copy lane.
std::string PanelsJson(const memmap::MapLayout& layout) {
  const auto C = [](double v) { return FormatCoord(v); };
  std::string out = fmt::format("\"cursorTop\":{},\"cursorBottom\":{},\"panels\":[",
                                C(layout.panels.front().plot.y),
                                C(layout.panels.back().plot.y + layout.panels.back().plot.h));
  for (std::size_t n = 0; n < layout.panels.size(); ++n) {
    const memmap::Panel& panel = layout.panels[n];
    out += fmt::format("{}{{\"space\":{},\"x\":{},\"y\":{},\"w\":{},\"h\":{},\"top\":{},\"segs\":[",
                       n ? "," : "", panel.space, C(panel.plot.x), C(panel.plot.y),
                       C(panel.plot.w), C(panel.plot.h), C(panel.axis.top));
    for (std::size_t k = 0; k < panel.hover.size(); ++k) {
      const memmap::HoverSegment& h = panel.hover[k];
      out += fmt::format("{}{},{},{},{},{}", k ? "," : "", h.buffer, h.allocation, h.offset,
                         h.start, h.end);
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
  return out + "]";
}

// (start, bytes) pairs flattened.
std::string PointsJson(const std::vector<memmap::LiveStep>& points) {
  std::string out = "[";
  for (std::size_t i = 0; i < points.size(); ++i) {
    out += fmt::format("{}{},{}", i ? "," : "", points[i].start, points[i].bytes);
  }
  return out + "]";
}

// Hover data for the page script (see kScript for the field order). `act`:
// the activations-only view, when the page has one.
std::string BuildData(const memmap::MapLayout& layout, const memmap::MapLayout* act,
                      const BufferSet& buffers, const Plan& plan, const MapOptions& options,
                      const memmap::LiveChart& chart) {
  const auto C = [](double v) { return FormatCoord(v); };
  std::string out = "{";
  out += fmt::format(
      "\"tmax\":{},\"plotX\":{},\"plotW\":{},\"lowerBound\":{},\"laneRowPitch\":{},",
      layout.time_top, C(layout.plot_x), C(layout.plot_w), plan.lower_bound,
      C(memmap::kLaneRowPitch));
  // Pools (names indexed by buffers) and spaces.
  // Pools are listed by first use; a region allocation's name says what it is.
  std::vector<std::string> pools;
  std::vector<bool> pool_resident;
  std::map<std::string, int> pool_index;
  std::vector<int> pool_of(buffers.buffers.size(), 0);
  const std::vector<Lifetime> lifetimes = memmap::PoolLifetimes(buffers, plan);
  for (std::size_t i = 0; i < buffers.buffers.size(); ++i) {
    const std::string pool = memmap::PoolOf(buffers, plan, static_cast<BufferId>(i));
    auto [it, added] = pool_index.emplace(pool, static_cast<int>(pools.size()));
    if (added) {
      pools.push_back(memmap::PoolLabel(plan, pool));
      pool_resident.push_back(!memmap::IsActivationLifetime(lifetimes[i]));
    }
    pool_of[i] = it->second;
  }
  out += "\"pools\":[";
  for (std::size_t i = 0; i < pools.size(); ++i) {
    if (i > 0) out += ',';
    out += JsonString(pools[i]);
  }
  // Pools laid out once, never reused: their buffers hold bytes all run.
  out += "],\"resident\":[";
  bool first = true;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    if (!pool_resident[i]) continue;
    out += fmt::format("{}{}", first ? "" : ",", i);
    first = false;
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
  out += "],\n" + PanelsJson(layout);
  if (act != nullptr) out += ",\n\"act\":{" + PanelsJson(*act) + "}";
  // Live chart: plot box, axis top, the default series' [start, bytes]
  // pairs, and every series with its name.
  const memmap::LiveSeries& main = chart.series.front();
  bool exact = true;
  for (const memmap::LiveSeries& series : chart.series) exact = exact && series.exact;
  out += fmt::format(
      ",\n\"live\":{{\"x\":{},\"y\":{},\"w\":{},\"h\":{},\"top\":{},\"exact\":{},\"values\":{},"
      "\"series\":[",
      C(layout.plot_x), C(chart.plot_top), C(layout.plot_w), C(memmap::kLiveHeight),
      C(chart.axis.top), exact ? "true" : "false", PointsJson(main.points));
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    out += fmt::format("{}{{\"space\":{},\"name\":{},\"values\":{}}}", s ? "," : "",
                       chart.series[s].space, JsonString(chart.series[s].name),
                       PointsJson(chart.series[s].points));
  }
  out += "]}}";
  return out;
}

}  // namespace

std::string RenderHtmlMap(const BufferSet& buffers, const Plan& plan, const MapOptions& options) {
  const memmap::MapLayout layout = memmap::LayoutMap(buffers, plan, options);
  // The activations-only view, when it hides anything.
  MapOptions act_options = options;
  act_options.activations_only = true;
  std::optional<memmap::MapLayout> act = memmap::LayoutMap(buffers, plan, act_options);
  if (act->hidden_buffers == 0) act.reset();
  const memmap::LiveChart chart = memmap::BuildLiveChart(layout, buffers, plan, options);

  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width\">\n";
  // Figures grow with the window up to kHtmlMaxScale times the layout width
  // (plus borders), and never shrink below it: text stays at least its
  // nominal size (11 px), and a narrower window scrolls the figure's box.
  out += fmt::format(
      "<title>{}</title>\n<style>{}.figure{{max-width:{}px}}.figure svg{{min-width:{}px}}"
      "</style>\n</head>\n<body>\n",
      XmlEscape(layout.title), kCss, FormatCoord(layout.width * kHtmlMaxScale + 2),
      FormatCoord(layout.width));
  out += fmt::format("<header>\n<h1>{}</h1>\n", XmlEscape(layout.title));
  AppendSummary(out, buffers, plan);
  out += "</header>\n<h2>memory map: time step on x, address on y; hover a buffer</h2>\n";
  // With weights (or other never-reused pools), the activations are shown
  // first: the weights would squeeze them into a strip. One click (or
  // #all) shows everything.
  if (act) {
    out += fmt::format(
        "<label id=\"act-toggle\" class=\"toggle\"><input type=\"checkbox\" id=\"act\" "
        "checked> activations only: the {} of never-reused pools (weights, state, model "
        "inputs and outputs) are hidden and the address axis fits the rest; uncheck to show "
        "them</label>\n",
        CountOf(act->hidden_buffers, "buffer"));
  }
  out += fmt::format("<div id=\"map\" class=\"figure\"{}>\n", act ? " hidden" : "");
  out += memmap::RenderSvgElement(layout, buffers, plan, options, /*standalone=*/false, "map");
  out += "</div>\n";
  if (act) {
    out += "<div id=\"map-act\" class=\"figure\">\n";
    out += memmap::RenderSvgElement(*act, buffers, plan, act_options, /*standalone=*/false, "act");
    out += "</div>\n";
  }
  out += "<div id=\"live\" class=\"figure\">\n";
  out += memmap::RenderLiveChart(layout, chart);
  out += "</div>\n<div id=\"tip\" hidden></div>\n";
  out += "<script type=\"application/json\" id=\"memplan-data\">";
  out += BuildData(layout, act ? &*act : nullptr, buffers, plan, options, chart);
  out += "</script>\n<script>\n";
  out += kScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace memplan
