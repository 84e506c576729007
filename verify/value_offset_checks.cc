// Rule 14 of verify/verifier.h: every value's place inside its buffer
// (Plan::value_offsets, what a runtime reads as the value's address) agrees
// with the program: a view sits at its source's place plus the view offset,
// a tied result at its operand's place, a gathered operand at the
// gathering result's place plus its offset, and every value lies inside its
// buffer. Re-derived from the program's aliasing alone. O(values + gathers).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

class ValueOffsetCheck {
 public:
  ValueOffsetCheck(const BufferSet& buffers, const Plan& plan, const Program& program)
      : buffers_(buffers), offsets_(plan.value_offsets), program_(program),
        buffer_of_(program.values.size(), kNoId) {
    for (BufferId b = 0; b < static_cast<BufferId>(buffers.buffers.size()); ++b) {
      for (ValueId v : buffers.buffers[b].values) {
        if (v >= 0 && v < static_cast<ValueId>(buffer_of_.size())) buffer_of_[v] = b;
      }
    }
  }

  absl::Status Run() const {
    if (offsets_.size() != program_.values.size()) {
      return Violation(absl::StrCat("the plan gives ", offsets_.size(),
                                    " value offsets for a program of ", program_.values.size(),
                                    " values"));
    }
    for (ValueId v = 0; v < static_cast<ValueId>(program_.values.size()); ++v) {
      const BufferId b = buffer_of_[v];
      if (b == kNoId) continue;
      const Value& value = program_.values[v];
      if (offsets_[v] < 0 || offsets_[v] > buffers_.buffers[b].size - value.size) {
        return Violation(absl::StrCat("%", value.name, " (", value.size, " bytes) at byte ",
                                      offsets_[v], " of its buffer '", buffers_.buffers[b].name.str(),
                                      "' (", buffers_.buffers[b].size, " bytes) lies outside it"),
                         b);
      }
      if (value.alias == AliasKind::kView) {
        if (absl::Status s = Expect(v, value.alias_of, value.view_offset, "a view of"); !s.ok()) return s;
      } else if (value.alias == AliasKind::kTied) {
        if (absl::Status s = Expect(v, value.alias_of, 0, "tied to"); !s.ok()) return s;
      }
      for (const GatheredOperand& g : value.gathers) {
        if (absl::Status s = Expect(g.operand, v, g.offset, "gathered into"); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

 private:
  // `inner` must share `outer`'s buffer and sit `delta` bytes after it.
  absl::Status Expect(ValueId inner, ValueId outer, Bytes delta, const char* relation) const {
    const Value& in = program_.values[inner];
    const Value& out = program_.values[outer];
    if (buffer_of_[inner] != buffer_of_[outer]) {
      return Violation(absl::StrCat("%", in.name, " is ", relation, " %", out.name,
                                    " but they are in different buffers"),
                       buffer_of_[inner]);
    }
    if (offsets_[inner] != offsets_[outer] + delta) {
      return Violation(absl::StrCat("%", in.name, " is ", relation, " %", out.name, " at +", delta,
                                    " bytes, so its address must be %", out.name, "'s (byte ",
                                    offsets_[outer], " of buffer '",
                                    buffers_.buffers[buffer_of_[outer]].name.str(), "') + ", delta,
                                    " = ", offsets_[outer] + delta, ", but the plan puts it at byte ",
                                    offsets_[inner]),
                       buffer_of_[inner]);
    }
    return absl::OkStatus();
  }

  const BufferSet& buffers_;
  const std::vector<Bytes>& offsets_;
  const Program& program_;
  std::vector<BufferId> buffer_of_;
};

}  // namespace

absl::Status CheckValueOffsets(const BufferSet& buffers, const Plan& plan, const Program& program) {
  if (plan.value_offsets.empty()) return absl::OkStatus();  // a plan that states none
  return ValueOffsetCheck(buffers, plan, program).Run();
}

}  // namespace memplan::verify_internal
