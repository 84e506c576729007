// Rule 11 of verify/verifier.h: a result that gathers operands
// (`gathers(%a, 0, %b, 1024)`, an outer-axis concat whose producers write
// straight into their slices) is safe to plan as one buffer only if that
// buffer is reserved from the first producer's write and nothing else keeps
// data in it meanwhile. Re-derived from the Program alone (steps and holds
// from verify/program_liveness.h), never from the planners' alias sets.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/plural.h"
#include "verify/checks.h"
#include "verify/describe.h"
#include "verify/program_liveness.h"

namespace memplan::verify_internal {
namespace {

bool Valid(const Program& program, ValueId v) {
  return v >= 0 && v < static_cast<ValueId>(program.values.size());
}

std::string Name(const Program& program, ValueId v) { return "%" + program.values[v].name; }

// The values whose data the producers of `result`'s gathered operands write
// into it: the gathered operands, every value linked to one of them by a tie
// or a view of the same size (either way: a reshape of an operand read
// before the concat holds the same bytes), and, for a member that itself
// gathers operands (a concat of concats), those too. `aliased_by` lists per value the values tied to or
// viewing it. `mark` (per value, == stamp: in the family) is reused across
// calls. O(family size + its aliasing links).
std::vector<ValueId> Family(const Program& program, ValueId result,
                            const std::vector<std::vector<ValueId>>& aliased_by,
                            std::vector<std::size_t>& mark, std::size_t stamp) {
  std::vector<ValueId> family;
  std::vector<ValueId> stack;
  const auto visit = [&](ValueId v) {
    if (!Valid(program, v) || v == result || mark[v] == stamp) return;
    mark[v] = stamp;
    family.push_back(v);
    stack.push_back(v);
  };
  for (const GatheredOperand& g : program.values[result].gathers) visit(g.operand);
  while (!stack.empty()) {
    const ValueId v = stack.back();
    stack.pop_back();
    const Value& value = program.values[v];
    // Only links between values of one size: they cover the same bytes (a
    // view as large as its operand starts at its offset 0), so a smaller
    // view's base, which also covers bytes outside the slice, stays out.
    const auto same_bytes = [&](ValueId u) { return program.values[u].size == value.size; };
    if (value.alias != AliasKind::kNone && Valid(program, value.alias_of) && same_bytes(value.alias_of)) {
      visit(value.alias_of);
    }
    for (ValueId u : aliased_by[v]) {
      if (same_bytes(u)) visit(u);
    }
    for (const GatheredOperand& g : value.gathers) visit(g.operand);
  }
  return family;
}

}  // namespace

absl::Status CheckGathers(const BufferSet& buffers, const Program& program) {
  const ProgramSteps steps = NumberProgram(program);
  const auto count = static_cast<ValueId>(program.values.size());
  std::vector<BufferId> buffer_of(program.values.size(), kNoId);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    for (ValueId v : buffers.buffers[id].values) {
      if (v >= 0 && v < count) buffer_of[v] = id;
    }
  }
  std::vector<std::vector<ValueId>> aliased_by(program.values.size());
  for (ValueId v = 0; v < count; ++v) {
    const Value& value = program.values[v];
    if (value.alias != AliasKind::kNone && Valid(program, value.alias_of)) {
      aliased_by[value.alias_of].push_back(v);
    }
  }
  std::vector<std::size_t> mark(program.values.size(), 0);
  std::size_t stamp = 0;
  for (ValueId r = 0; r < count; ++r) {
    const Value& result = program.values[r];
    if (result.gathers.empty() || result.defining_op == kNoId) continue;
    const TimeStep t = steps.op[result.defining_op];
    const BufferId id = buffer_of[r];
    if (t < 0 || id == kNoId) continue;  // not run, or holds no storage
    const Buffer& b = buffers.buffers[id];
    // (a) every gathered operand shares the result's buffer, inside it and
    // apart from the others.
    std::vector<const GatheredOperand*> slices;
    for (const GatheredOperand& g : result.gathers) {
      if (!Valid(program, g.operand)) return Violation(absl::StrCat(Name(program, r), " gathers an unknown value"));
      if (buffer_of[g.operand] != id) {
        return Violation(absl::StrCat(Name(program, r), " gathers ", Name(program, g.operand),
                                      " at offset ", g.offset, ", but ", BufferRef(buffers, id),
                                      " does not hold ", Name(program, g.operand),
                                      ": its producer would write outside the result"));
      }
      if (g.offset < 0 || g.offset + program.values[g.operand].size > result.size) {
        return Violation(absl::StrCat(Name(program, r), " gathers ", Name(program, g.operand),
                                      " at bytes [", g.offset, ", ",
                                      g.offset + program.values[g.operand].size,
                                      "), outside its ", CountOf(result.size, "byte")));
      }
      slices.push_back(&g);
    }
    std::sort(slices.begin(), slices.end(), [](const GatheredOperand* x, const GatheredOperand* y) {
      return x->offset < y->offset;
    });
    for (std::size_t i = 1; i < slices.size(); ++i) {
      const Bytes end = slices[i - 1]->offset + program.values[slices[i - 1]->operand].size;
      if (end > slices[i]->offset) {
        return Violation(absl::StrCat(Name(program, r), " gathers ",
                                      Name(program, slices[i - 1]->operand), " and ",
                                      Name(program, slices[i]->operand),
                                      " into overlapping bytes (", slices[i]->offset, " < ", end,
                                      ")"));
      }
    }
    // (b) the buffer is reserved from the first write of a family member
    // until the gathering op, and (c) in that time no value outside the
    // family holds data in it (e.g. a loop parameter the result will
    // replace): the producers' writes would clobber it.
    const std::vector<ValueId> family = Family(program, r, aliased_by, mark, ++stamp);
    TimeStep first = t;
    ValueId first_writer = r;
    for (ValueId v : family) {
      const StepRange& hold = steps.value[v];
      if (hold.first >= 0 && hold.first < first) {
        first = hold.first;
        first_writer = v;
      }
    }
    if (b.start > first || b.end < t) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " has live range [", b.start, ", ",
                                    b.end, "], but ", Name(program, r), " at time ", t,
                                    " gathers data that ", Name(program, first_writer),
                                    " holds from time ", first,
                                    ": the buffer must be live from then to the gather"));
    }
    for (ValueId v : b.values) {
      if (v < 0 || v >= count || v == r || mark[v] == stamp) continue;
      const StepRange& hold = steps.value[v];
      if (hold.first < 0 || hold.last < first || hold.first >= t) continue;
      return Violation(absl::StrCat(
          BufferRef(buffers, id), ": ", Name(program, v), " holds data in it at time ",
          std::max(hold.first, first), ", while the operands ", Name(program, r), " gathers at time ",
          t, " are being written there (from time ", first, ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
