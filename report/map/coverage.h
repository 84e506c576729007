// Pixel coverage for memory-map marks too small (or too many) to draw one by
// one. Each mark is snapped outward to whole pixel cells, so a 0.1-pixel
// buffer still shows as one pixel; each covered cell takes the color that
// touches it most often; covered cells are then merged into maximal
// rectangles (horizontal runs, then identical runs on consecutive rows).
//
// Example: on a 4x2 grid, Add({0.2, 0.0, 1.5, 0.3}, color 1) touches cells
// x = 0..1 of row 0; Rects() returns {color 1, x 0, y 0, w 2, h 1}.
//
// Cost: O(colors x width x height) memory and time for Rects(), O(1) per Add
// (2-D difference arrays), independent of how many marks are added.
#pragma once

#include <cstdint>
#include <vector>

namespace memplan::memmap {

// A rectangle in a pixel grid (integer cells, y grows downwards).
struct PixelRect {
  int color = 0;
  int x = 0;
  int y = 0;
  int w = 0;
  int h = 0;
  bool operator==(const PixelRect&) const = default;
};

// A rectangle in pixels (y grows downwards, as in SVG).
struct Box {
  double x = 0;
  double y = 0;
  double w = 0;
  double h = 0;
};

class CoverageGrid {
 public:
  // A grid of width x height cells for colors 0..colors-1 (all >= 0).
  CoverageGrid(int width, int height, int colors);

  // Marks the cells `box` touches (coordinates relative to the grid origin;
  // the part outside the grid is ignored) with `color`.
  void Add(const Box& box, int color);
  // True when no mark has been added inside the grid.
  bool empty() const { return marks_ == 0; }
  // The covered cells as rectangles, sorted by (color, y, x).
  std::vector<PixelRect> Rects() const;

 private:
  int width_;
  int height_;
  int colors_;
  std::int64_t marks_ = 0;
  // Per color, a (height+1) x (width+1) difference array; allocated on first use.
  std::vector<std::vector<std::int32_t>> diff_;
};

}  // namespace memplan::memmap
