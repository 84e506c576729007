#include "report/map/coverage.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace memplan::memmap {

CoverageGrid::CoverageGrid(int width, int height, int colors)
    : width_(std::max(width, 0)),
      height_(std::max(height, 0)),
      colors_(std::max(colors, 0)),
      diff_(static_cast<std::size_t>(colors_)) {}

void CoverageGrid::Add(const Box& box, int color) {
  if (color < 0 || color >= colors_ || width_ == 0 || height_ == 0) return;
  if (!std::isfinite(box.x) || !std::isfinite(box.y) || !std::isfinite(box.w) ||
      !std::isfinite(box.h)) {
    return;
  }
  // Snap outwards to whole cells, at least one cell in each direction.
  const auto cells = [](double lo, double size, int limit, int& first, int& last) {
    const double hi = lo + std::max(size, 0.0);
    if (hi < 0 || lo >= limit) return false;
    first = static_cast<int>(std::clamp(std::floor(lo), 0.0, static_cast<double>(limit - 1)));
    last = static_cast<int>(std::clamp(std::ceil(hi), 0.0, static_cast<double>(limit)));
    last = std::max(last, first + 1);
    return true;
  };
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  if (!cells(box.x, box.w, width_, x0, x1) || !cells(box.y, box.h, height_, y0, y1)) return;
  std::vector<std::int32_t>& diff = diff_[static_cast<std::size_t>(color)];
  const std::size_t stride = static_cast<std::size_t>(width_) + 1;
  if (diff.empty()) diff.assign(stride * (static_cast<std::size_t>(height_) + 1), 0);
  const auto at = [&](int x, int y) -> std::int32_t& {
    return diff[static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x)];
  };
  ++at(x0, y0);
  --at(x1, y0);
  --at(x0, y1);
  ++at(x1, y1);
  ++marks_;
}

std::vector<PixelRect> CoverageGrid::Rects() const {
  std::vector<PixelRect> rects;
  if (marks_ == 0) return rects;
  const std::size_t cells = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
  std::vector<std::int32_t> best_count(cells, 0);
  std::vector<std::int32_t> winner(cells, -1);
  const std::size_t stride = static_cast<std::size_t>(width_) + 1;
  std::vector<std::int32_t> row_sum(stride);
  for (int color = 0; color < colors_; ++color) {
    const std::vector<std::int32_t>& diff = diff_[static_cast<std::size_t>(color)];
    if (diff.empty()) continue;
    // Running 2-D prefix sum: row_sum holds the column sums of rows 0..y.
    std::fill(row_sum.begin(), row_sum.end(), 0);
    for (int y = 0; y < height_; ++y) {
      std::int32_t count = 0;
      for (int x = 0; x < width_; ++x) {
        row_sum[x] += diff[static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x)];
        count += row_sum[x];
        const std::size_t cell = static_cast<std::size_t>(y) * width_ + x;
        if (count > best_count[cell]) {  // strict: the lower color wins ties
          best_count[cell] = count;
          winner[cell] = color;
        }
      }
    }
  }
  // Horizontal runs per row; a run repeated on the next row extends its rectangle.
  using RunKey = std::tuple<int, int, int>;  // x, w, color
  std::map<RunKey, int> open;                // run -> first row
  std::map<RunKey, int> next;
  const auto close = [&](const RunKey& key, int first_row, int end_row) {
    const auto [x, w, color] = key;
    rects.push_back({color, x, first_row, w, end_row - first_row});
  };
  for (int y = 0; y < height_; ++y) {
    next.clear();
    for (int x = 0; x < width_;) {
      const std::int32_t color = winner[static_cast<std::size_t>(y) * width_ + x];
      int end = x + 1;
      while (end < width_ && winner[static_cast<std::size_t>(y) * width_ + end] == color) ++end;
      if (color >= 0) {
        const RunKey key{x, end - x, color};
        const auto it = open.find(key);
        next.emplace(key, it == open.end() ? y : it->second);
      }
      x = end;
    }
    for (const auto& [key, first_row] : open) {
      if (!next.contains(key)) close(key, first_row, y);
    }
    open.swap(next);
  }
  for (const auto& [key, first_row] : open) close(key, first_row, height_);
  std::sort(rects.begin(), rects.end(), [](const PixelRect& a, const PixelRect& b) {
    return std::tie(a.color, a.y, a.x) < std::tie(b.color, b.y, b.x);
  });
  return rects;
}

}  // namespace memplan::memmap
