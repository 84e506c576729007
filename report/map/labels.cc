#include "report/map/labels.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace memplan::memmap {
namespace {

constexpr double kAscent = 10;   // pixels of 11-pixel text above its baseline
constexpr double kDescent = 3;   // and below it
constexpr double kInset = 4;     // from a box's left edge to its text
constexpr double kEdgeGap = 5;   // from a box's top or bottom edge to the text
// A block's name is shortened in the middle to at most this many
// characters, and not written at all in fewer.
constexpr double kMaxBlockLabelChars = 34;
constexpr double kMinBlockLabelChars = 16;

double TextWidth(const std::string& text) {
  return static_cast<double>(text.size()) * kMapCharWidth;
}

bool Overlaps(double a0, double a1, double b0, double b1) { return a0 < b1 && b0 < a1; }

// `name` in at most `chars` characters: a path loses its leading parts
// first ("…/layer1.2/conv3/Conv_output_0"), as its last parts say most;
// what is still too long is shortened in the middle.
std::string FitName(const std::string& name, std::size_t chars) {
  constexpr std::string_view kEllipsis = "…";  // one character on screen
  std::string_view rest = name;
  bool cut = false;
  while (rest.size() + (cut ? 1 : 0) > chars) {
    const std::size_t slash = rest.find('/', 1);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash);
    cut = true;
  }
  const std::string fitted = cut ? std::string(kEllipsis) + std::string(rest) : name;
  // ElideMiddle counts bytes; the ellipsis is 3 of them but one character.
  return cut && rest.size() + 1 <= chars ? fitted : ElideMiddle(name, chars);
}

}  // namespace

std::string ShortBufferName(std::string_view name) {
  std::vector<std::string_view> parts;
  for (std::size_t begin = 0;;) {
    const std::size_t slash = name.find('/', begin);
    parts.push_back(name.substr(begin, slash == std::string_view::npos ? slash : slash - begin));
    if (slash == std::string_view::npos) break;
    begin = slash + 1;
  }
  std::string out;
  bool first = true;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool repeated = i + 1 < parts.size() && !parts[i].empty() &&
                          parts[i + 1].size() > parts[i].size() &&
                          parts[i + 1].starts_with(parts[i]) &&
                          parts[i + 1][parts[i].size()] == '.';
    if (repeated) continue;
    if (!first) out += '/';
    out += parts[i];
    first = false;
  }
  return out;
}

PeakLabelSide ChoosePeakLabelSide(double x, double width, double left, double right) {
  const double right_room = right - x - 8;
  const double left_room = x - left - 8;
  const bool goes_left = width > right_room && left_room > right_room;
  return {goes_left, goes_left ? left_room : right_room};
}

bool ClearOfPanelMarks(const Panel& panel, double x0, double x1, double top, double bottom,
                       bool across_peak_line) {
  for (const LineMark& line : panel.lines) {
    if (line.y > top - 2 && line.y < bottom + 2) return false;
    const double width = TextWidth(line.label);
    if (Overlaps(x0, x1, line.label_x - width, line.label_x) &&
        Overlaps(top, bottom, line.label_y - kAscent, line.label_y + kDescent)) {
      return false;
    }
  }
  if (panel.peak) {
    const PeakMark& peak = *panel.peak;
    if (!across_peak_line && peak.x > x0 - 2 && peak.x < x1 + 2) return false;
    const double width = TextWidth(peak.label);
    const double left = peak.label_end ? peak.label_x - width : peak.label_x;
    if (Overlaps(x0, x1, left, left + width) &&
        Overlaps(top, bottom, peak.label_y - kAscent, peak.label_y + kDescent)) {
      return false;
    }
  }
  return true;
}

void PlaceBandLabels(Panel& panel) {
  for (BandMark& band : panel.bands) {
    if (!band.labeled) continue;
    const Box& box = band.box;
    const double width = TextWidth(band.label);
    std::vector<double> xs = {box.x + kInset};
    if (panel.peak) xs.push_back(panel.peak->x + kInset + 2);
    const double bottom_row = box.y + box.h - kEdgeGap - kDescent;
    const double top_row = box.y + kEdgeGap + kAscent;
    std::optional<std::pair<double, double>> place;
    for (double x : xs) {
      for (double y : {bottom_row, top_row}) {
        if (place || y - kAscent < box.y || y + kDescent > box.y + box.h) continue;
        if (x + width > box.x + box.w) continue;
        if (ClearOfPanelMarks(panel, x, x + width, y - kAscent, y + kDescent)) place = {x, y};
      }
    }
    if (!place && band.resident) place = {box.x + kInset, box.y + box.h - kInset};
    band.labeled = place.has_value();
    if (place) std::tie(band.label_x, band.label_y) = *place;
  }
}

void PlaceBlockLabels(Panel& panel, const BufferSet& buffers, std::size_t max_labels) {
  std::vector<std::size_t> order(panel.segments.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto area = [&](std::size_t i) { return panel.segments[i].box.w * panel.segments[i].box.h; };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return area(a) > area(b); });
  // Texts already placed: band labels, then block labels.
  std::vector<Box> taken;
  for (const BandMark& band : panel.bands) {
    if (band.labeled) {
      taken.push_back({band.label_x, band.label_y - kAscent, TextWidth(band.label),
                       kAscent + kDescent});
    }
  }
  const double right = panel.plot.x + panel.plot.w - kInset;
  for (std::size_t i : order) {
    if (panel.block_labels.size() >= max_labels) break;
    const SegmentMark& mark = panel.segments[i];
    const Box& box = mark.box;
    if (mark.buffer < 0 || static_cast<std::size_t>(mark.buffer) >= buffers.buffers.size()) continue;
    if (box.h < kAscent + kDescent) continue;
    const std::string_view name = buffers.buffers[static_cast<std::size_t>(mark.buffer)].name.view();
    BlockLabel label;
    label.buffer = mark.buffer;
    label.x = box.x + (box.w >= 2 * kInset + kMapCharWidth ? kInset : 1);
    const double room = std::min(kMaxBlockLabelChars * kMapCharWidth, right - label.x);
    if (name.empty() || room < kMinBlockLabelChars * kMapCharWidth) continue;
    label.text = FitName(ShortBufferName(name), static_cast<std::size_t>(room / kMapCharWidth));
    label.y = std::round(box.y + box.h / 2 + (kAscent - kDescent) / 2);
    const Box text{label.x, label.y - kAscent, TextWidth(label.text), kAscent + kDescent};
    // The text's halo hides the peak step's dashed line where they cross.
    if (!ClearOfPanelMarks(panel, text.x, text.x + text.w, text.y, text.y + text.h,
                           /*across_peak_line=*/true)) {
      continue;
    }
    const bool on_text = std::any_of(taken.begin(), taken.end(), [&](const Box& other) {
      return Overlaps(text.x, text.x + text.w + kInset, other.x, other.x + other.w + kInset) &&
             Overlaps(text.y, text.y + text.h, other.y, other.y + other.h);
    });
    if (on_text) continue;
    taken.push_back(text);
    panel.block_labels.push_back(std::move(label));
  }
}

}  // namespace memplan::memmap
