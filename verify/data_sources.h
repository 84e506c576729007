// Where a value's data may come from (rule 5 of verify/region_checks.h),
// re-derived from the Program alone. Each value has *parents*: the operand it
// is tied to or views; for a computation parameter, what every call site
// passes for it (and, in a while, the body result that the next iteration
// receives); for a result of call/execute/while/conditional, the callee
// result(s) at its position; for an X-done result, the X-start's result.
// The data sources of v are v and everything reachable through parents.
//
// Cost: building is O(values + ops + call-site operands). A query walks v's
// ancestors once (a DFS with a visited mark, O(1) to reset) and is cached per
// (value, source) pair, so repeated reads of a value cost O(1) amortised.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ir/program.h"

namespace memplan::region_verify {

class DataSources {
 public:
  explicit DataSources(const Program& program);

  // True when bytes holding `source`'s data are valid data of `value`.
  bool IsSource(ValueId source, ValueId value);

 private:
  void AddParent(ValueId child, ValueId parent);
  bool Walk(ValueId source, ValueId value);

  std::vector<std::vector<ValueId>> parents_;
  std::vector<std::uint64_t> seen_;  // == generation_: visited by the current walk
  std::uint64_t generation_ = 0;
  std::unordered_map<std::uint64_t, bool> cache_;  // (value << 32 | source) -> answer
};

}  // namespace memplan::region_verify
