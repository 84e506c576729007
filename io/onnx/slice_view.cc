#include "io/onnx/slice_view.h"

#include <cstdint>
#include <vector>

#include "ir/attributes.h"

namespace memplan {

std::optional<Bytes> ContiguousSliceOffset(const Op& slice, const Value& data,
                                           const Value& window) {
  if (!data.type || !window.type || data.type->dtype != window.type->dtype) return std::nullopt;
  const std::vector<std::int64_t>& dims = data.type->dims;
  const std::vector<std::int64_t>& sub = window.type->dims;
  std::optional<std::vector<std::int64_t>> starts = IntListAttribute(slice, "starts");
  if (!starts || starts->size() != dims.size() || sub.size() != dims.size()) return std::nullopt;
  std::int64_t elements = 1;
  std::int64_t window_elements = 1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const std::int64_t s = (*starts)[d];
    if (sub[d] < 1 || s < 0 || s > dims[d] - sub[d]) return std::nullopt;
    elements *= dims[d];
    window_elements *= sub[d];
  }
  if (data.size <= 0 || data.size % elements != 0) return std::nullopt;
  const Bytes element_bytes = data.size / elements;
  if (window.size != window_elements * element_bytes) return std::nullopt;
  // k: the innermost dim the window cuts; dims before it must take one index.
  std::size_t k = dims.size();
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (sub[d] != dims[d]) {
      k = d;
      break;
    }
  }
  std::int64_t first = 0;  // row-major element index of `starts`
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (d < k && k < dims.size() && sub[d] != 1) return std::nullopt;
    first = first * dims[d] + (*starts)[d];
  }
  return first * element_bytes;
}

}  // namespace memplan
