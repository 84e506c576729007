#include "report/map/side_by_side.h"

#include <algorithm>

#include "fmt/format.h"
#include "report/map/format.h"
#include "report/map/html.h"
#include "report/map/svg.h"

namespace memplan {
namespace {

using memmap::FormatCoord;
using memmap::XmlEscape;

constexpr double kGapPx = 24;

// The highest address axis among the panels of `side`'s map in one view.
Bytes AxisTop(const MapSide& side, bool activations_only) {
  MapOptions options = side.options;
  options.activations_only = activations_only;
  const memmap::MapLayout layout = memmap::LayoutMap(*side.buffers, *side.plan, options);
  double top = 0;
  for (const memmap::Panel& panel : layout.panels) top = std::max(top, panel.axis.top);
  return static_cast<Bytes>(top);
}

}  // namespace

MapSide OnCommonScale(const MapSide& side, const MapSide& other) {
  MapSide out = side;
  out.options.min_address_top = std::max(AxisTop(side, false), AxisTop(other, false));
  out.options.min_activations_top = std::max(AxisTop(side, true), AxisTop(other, true));
  return out;
}

std::string RenderSvgMapPair(const MapSide& left, const MapSide& right) {
  const MapSide sides[2] = {OnCommonScale(left, right), OnCommonScale(right, left)};
  double width = 0;
  double height = 0;
  std::string body;
  for (const MapSide& side : sides) {
    const memmap::MapLayout layout = memmap::LayoutMap(*side.buffers, *side.plan, side.options);
    std::string svg = memmap::RenderSvgElement(layout, *side.buffers, *side.plan, side.options,
                                               /*standalone=*/true);
    // Placed by an x attribute on the nested <svg> (SVG 1.1 allows nesting).
    if (width > 0) svg.insert(4, fmt::format(" x=\"{}\"", FormatCoord(width)));
    body += svg;
    width += layout.width + kGapPx;
    height = std::max(height, layout.height);
  }
  width -= kGapPx;
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n<rect width=\"{0}\" height=\"{1}\" "
      "fill=\"#ffffff\"/>\n{2}</svg>\n",
      FormatCoord(width), FormatCoord(height), body);
}

std::string RenderHtmlMapPair(const MapSide& left, const MapSide& right, std::string_view title) {
  const MapSide sides[2] = {OnCommonScale(left, right), OnCommonScale(right, left)};
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>{0}</title>\n<style>"
      "body{{margin:8px;font-family:sans-serif}}h1{{font-size:18px;margin:4px 0 8px}}"
      ".pair{{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}}"
      ".pair iframe{{flex:1 1 780px;min-width:780px;height:1200px;border:1px solid #ccc}}"
      "</style>\n</head>\n<body>\n<h1>{0}</h1>\n<div class=\"pair\">\n",
      XmlEscape(title));
  for (const MapSide& side : sides) {
    MapOptions options = side.options;
    options.width_px = kHtmlMapWidthPx;
    const std::string page = RenderHtmlMap(*side.buffers, *side.plan, options);
    out += fmt::format("<iframe title=\"{}\" srcdoc=\"{}\"></iframe>\n",
                       XmlEscape(options.title), XmlEscape(page));
  }
  // Each frame as tall as its page (srcdoc frames share the page's origin).
  out +=
      "</div>\n<script>\nfor (const f of document.querySelectorAll('.pair iframe')) {\n"
      "  const fit = () => { f.style.height = f.contentDocument.documentElement.scrollHeight + "
      "20 + 'px'; };\n  f.addEventListener('load', fit);\n"
      "  if (f.contentDocument && f.contentDocument.readyState === 'complete') fit();\n}\n"
      "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace memplan
