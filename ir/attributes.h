// Typed reads of an op's generic attributes (Op::attributes).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/program.h"

namespace memplan {

// The integer list attribute `key` of `op` (the first one of that key);
// nullopt when absent or not a list of integers.
inline std::optional<std::vector<std::int64_t>> IntListAttribute(const Op& op,
                                                                 std::string_view key) {
  for (const Attribute& a : op.attributes) {
    if (a.key != key) continue;
    if (a.value.kind != AttrValue::Kind::kList) return std::nullopt;
    std::vector<std::int64_t> out;
    for (const AttrValue& v : a.value.list) {
      if (v.kind != AttrValue::Kind::kInt) return std::nullopt;
      out.push_back(v.i);
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace memplan
