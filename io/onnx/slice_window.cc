#include "io/onnx/slice_window.h"

#include <algorithm>
#include <limits>

#include "io/onnx/attr.h"

namespace memplan {
namespace {

using SliceIndices = std::vector<std::int64_t>;

// The integer values of Slice input `i`: empty when omitted, nullopt when
// present but unknown (or not an integer tensor).
std::optional<SliceIndices> SliceInput(const onnx::NodeProto& node,
                                       std::span<const FoldInput> inputs, size_t i) {
  if (i >= static_cast<size_t>(node.input_size()) || node.input(static_cast<int>(i)).empty()) {
    return SliceIndices{};
  }
  const KnownTensor* t = ValueAt(inputs, i);
  if (t == nullptr || t->real() || t->elem_type == onnx::TensorProto::BOOL) return std::nullopt;
  return t->values;
}

}  // namespace

OnnxSliceAxis ClampOnnxSliceAxis(std::int64_t start, std::int64_t end, std::int64_t step,
                                 std::int64_t n) {
  auto clamp = [n, step](std::int64_t i) {
    if (i < 0) i = i < -n ? -1 : i + n;
    return step > 0 ? std::clamp<std::int64_t>(i, 0, n) : std::clamp<std::int64_t>(i, -1, n - 1);
  };
  OnnxSliceAxis s;
  s.start = clamp(start);
  s.step = step;
  const std::int64_t e = clamp(end);
  if (step > 0 && e > s.start) s.count = (e - s.start - 1) / step + 1;
  if (step < 0 && e < s.start) {
    s.count = step == std::numeric_limits<std::int64_t>::min() ? 1
                                                                : (s.start - e - 1) / -step + 1;
  }
  return s;
}

std::optional<std::vector<OnnxSliceAxis>> ResolveOnnxSlice(
    const onnx::NodeProto& node, int opset, std::span<const FoldInput> inputs,
    std::span<const std::int64_t> data_dims) {
  std::optional<SliceIndices> starts, ends, axes, steps;
  if (opset < 10) {
    starts = IntsAttribute(node, "starts");
    ends = IntsAttribute(node, "ends");
    axes = IntsAttribute(node, "axes").value_or(SliceIndices{});
    steps = SliceIndices{};
  } else {
    starts = SliceInput(node, inputs, 1);
    ends = SliceInput(node, inputs, 2);
    axes = SliceInput(node, inputs, 3);
    steps = SliceInput(node, inputs, 4);
  }
  if (!starts || !ends || !axes || !steps || starts->size() != ends->size()) return std::nullopt;
  if (axes->empty()) {
    for (size_t i = 0; i < starts->size(); ++i) axes->push_back(static_cast<std::int64_t>(i));
  }
  if (steps->empty()) steps->assign(starts->size(), 1);
  if (axes->size() != starts->size() || steps->size() != starts->size()) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(data_dims.size());
  std::vector<OnnxSliceAxis> window(data_dims.size());
  for (std::int64_t a = 0; a < rank; ++a) window[a] = OnnxSliceAxis{0, 1, data_dims[a]};
  std::vector<bool> seen(data_dims.size(), false);
  for (size_t i = 0; i < axes->size(); ++i) {
    std::int64_t a = (*axes)[i];
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
    if (seen[a] || (*steps)[i] == 0) return std::nullopt;
    seen[a] = true;
    window[a] = ClampOnnxSliceAxis((*starts)[i], (*ends)[i], (*steps)[i], data_dims[a]);
  }
  return window;
}

}  // namespace memplan
