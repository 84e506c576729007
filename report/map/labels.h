// Where the map writes names inside a panel (report/map/layout.h): pool
// bands' labels and the names of the largest blocks, placed clear of the
// reference lines (transient extent, lower bound, used, capacity), their
// labels and the peak step's line and label, so that no text sits on a line
// or on another text. Text widths are estimates (kMapCharWidth per byte of
// 11-pixel sans-serif).
#pragma once

#include <string>
#include <string_view>

#include "ir/buffer_set.h"
#include "report/map/layout.h"

namespace memplan::memmap {

// Estimated width in pixels of one character of the map's 11-pixel text.
inline constexpr double kMapCharWidth = 6.2;

// Whether the text box [x0, x1] x [top, bottom] (pixels) meets no line of
// `panel` (a horizontal reference line within 2 pixels, or the peak step's
// vertical line unless `across_peak_line`), no line label and not the peak
// label.
bool ClearOfPanelMarks(const Panel& panel, double x0, double x1, double top, double bottom,
                       bool across_peak_line = false);

// The side of the peak step's line at `x` for a label `width` pixels wide in
// a plot spanning [left, right] pixels: the right, unless the label does not
// fit there and the left has more room (PeakMark::label_end). `room` is the
// room on that side, 8 pixels kept clear of the plot's edge (may be < 0).
struct PeakLabelSide {
  bool left = false;
  double room = 0;
};
PeakLabelSide ChoosePeakLabelSide(double x, double width, double left, double right);

// A buffer name without the path parts an exporter repeats: a part
// followed by one that extends it with a dot is left out, as PyTorch's ONNX
// names nest modules ("features/features.2"). Other names are unchanged.
// Example: "/features/features.2/conv/conv.0/conv.0.0/Conv_output_0" ->
// "/features.2/conv.0.0/Conv_output_0".
std::string ShortBufferName(std::string_view name);

// Places each labelled band's label (BandMark::label_x/label_y) at the
// first clear place of: bottom left, top left (4 pixels in, 5 from the
// edge), the same right of the peak step's line; a band where none is clear
// stays unlabelled, except a never-reused pool's (BandMark::resident),
// which keeps its bottom left place. Needs panel.lines and panel.peak
// placed.
void PlaceBandLabels(Panel& panel);

// Names the largest blocks drawn one by one (panel.segments, by area in
// pixels, ties by buffer): at most `max_labels` of them, each at least one
// text row high, its buffer's name (ShortBufferName) shortened to at most
// 34
// characters (and to the plot's right edge; a path loses its leading parts
// first, "…/layer1.2/conv3/Conv_output_0", else the middle goes), starting
// at the box's left
// edge and centred on it vertically: over the blocks to its right when the
// box is narrower (the text has a white halo, which also hides the peak
// step's line where it crosses it), as long as it meets no horizontal line,
// no other label (ClearOfPanelMarks, band labels, block labels placed
// before) and keeps at least 16 characters. Fills panel.block_labels; needs
// the band labels placed.
// Example: a 300 x 40 pixel block at (100, 50) of buffer "conv1_out" gets
// "conv1_out" at (104, 74).
void PlaceBlockLabels(Panel& panel, const BufferSet& buffers, std::size_t max_labels);

}  // namespace memplan::memmap
