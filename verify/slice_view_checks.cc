// Rule 12 of verify/verifier.h: an onnx.Slice result that is a view of its
// data operand must sit where the slice's window starts, and the window must
// be one contiguous run of the operand's bytes (else a view cannot hold it).
// Re-derived from the op's `starts` attribute and the dims alone; the
// importer's io/onnx/slice_view.h is not used.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/attributes.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

// Row-major element index of `index` in an array of dims `dims`.
std::int64_t RowMajorIndex(const std::vector<std::int64_t>& index,
                           const std::vector<std::int64_t>& dims) {
  std::int64_t at = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) at = at * dims[d] + index[d];
  return at;
}

std::string DimsText(const std::vector<std::int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ", "), "]");
}

// Empty when the view `window` of `data` is where `slice`'s window lies;
// else why not.
std::string SliceViewProblem(const Op& slice, const Value& data, const Value& window) {
  if (!data.type || !window.type) return "the operand or the result has no tensor type";
  const std::vector<std::int64_t>& dims = data.type->dims;
  const std::vector<std::int64_t>& sub = window.type->dims;
  const std::optional<std::vector<std::int64_t>> starts = IntListAttribute(slice, "starts");
  if (!starts) return "the op has no integer list `starts` saying where its window begins";
  if (starts->size() != dims.size() || sub.size() != dims.size()) {
    return absl::StrCat("starts ", DimsText(*starts), ", operand dims ", DimsText(dims),
                        " and result dims ", DimsText(sub), " differ in rank");
  }
  std::int64_t count = 1;
  std::int64_t total = 1;
  std::vector<std::int64_t> last(dims.size());
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if ((*starts)[d] < 0 || sub[d] < 1 || (*starts)[d] + sub[d] > dims[d]) {
      return absl::StrCat("the window at starts ", DimsText(*starts), " of dims ",
                          DimsText(sub), " leaves the operand's dims ", DimsText(dims));
    }
    last[d] = (*starts)[d] + sub[d] - 1;
    count *= sub[d];
    total *= dims[d];
  }
  // A box of a row-major array is one run exactly when its first and last
  // elements are as far apart as it has elements.
  const std::int64_t first = RowMajorIndex(*starts, dims);
  if (RowMajorIndex(last, dims) - first + 1 != count) {
    return absl::StrCat("the window at starts ", DimsText(*starts), " of dims ", DimsText(sub),
                        " is not one contiguous run of the operand's dims ", DimsText(dims));
  }
  if (data.size % total != 0 || window.size != count * (data.size / total)) {
    return absl::StrCat("sizes ", data.size, " and ", window.size,
                        " do not match the dims' element counts ", total, " and ", count);
  }
  const std::int64_t offset = first * (data.size / total);
  if (window.view_offset != offset) {
    return absl::StrCat("the window at starts ", DimsText(*starts), " begins at byte ", offset,
                        ", not at byte ", window.view_offset);
  }
  return "";
}

}  // namespace

absl::Status CheckSliceViews(const Program& program) {
  const auto count = static_cast<ValueId>(program.values.size());
  for (ValueId v = 0; v < count; ++v) {
    const Value& window = program.values[v];
    if (window.alias != AliasKind::kView || window.defining_op == kNoId) continue;
    const Op& op = program.ops[window.defining_op];
    if (op.opcode != "onnx.Slice") continue;
    if (op.operands.empty() || op.operands[0] != window.alias_of) {
      return Violation(absl::StrCat("%", window.name,
                                    " of onnx.Slice is a view of another operand than the data "
                                    "(its first operand)"));
    }
    const std::string problem = SliceViewProblem(op, program.values[window.alias_of], window);
    if (!problem.empty()) {
      return Violation(absl::StrCat("%", window.name, " = onnx.Slice(%",
                                    program.values[window.alias_of].name, ") is a view at byte ",
                                    window.view_offset, ", but ", problem));
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
