// Helpers shared by the writer and readers of the JSON plan (report/plan_json.cc,
// report/regions_json.cc): compact text, and typed, located look-ups in a parsed
// document. Internal to io/.
//
// A reader is a deep nest of look-ups; instead of threading a Status through
// each, they throw SchemaError, which ReadPlanJson turns into
// `path: error: /json/pointer: message` at its boundary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/units.h"
#include "nlohmann/json.hpp"

namespace memplan::json_internal {

using Json = nlohmann::ordered_json;

// `j` as compact text. Names come from inputs: invalid UTF-8 is replaced
// instead of throwing.
std::string Dump(const Json& j);

// A schema violation at a JSON pointer. `mismatch`: the value is well-formed
// but disagrees with the input the plan is read for.
struct SchemaError {
  std::string pointer;
  std::string message;
  bool mismatch = false;
};

// "<parent>/<key>" and "<parent>/<index>".
std::string Pointer(const std::string& parent, std::string_view key);
std::string Pointer(const std::string& parent, std::size_t index);

// Throws SchemaError{pointer, "expected <want>, found <type>"}.
[[noreturn]] void WrongType(const Json& value, const std::string& pointer, std::string_view want);

// An int64 (throws for another type or an unsigned value above int64).
std::int64_t AsInt(const Json& value, const std::string& pointer);
// `v` when it is in [lo, hi]; throws "<v> is outside [lo, hi]" otherwise.
std::int64_t InRange(std::int64_t v, const std::string& pointer, std::int64_t lo, std::int64_t hi);

// Typed members of an object at `pointer`: reader.Int("offset") reads
// <pointer>/offset. The constructor throws when `value` is not an object.
class ObjectReader {
 public:
  ObjectReader(const Json& value, std::string pointer);
  // The member `key`; throws "<pointer>/<key>: missing" when absent.
  const Json& Get(std::string_view key) const;
  bool Has(std::string_view key) const;
  std::string Path(std::string_view key) const;
  std::int64_t Int(std::string_view key) const;
  std::int32_t Int32(std::string_view key) const;
  // An integer in [lo, hi].
  std::int64_t IntIn(std::string_view key, std::int64_t lo, std::int64_t hi) const;
  // A byte count, offset, time or count: [0, kMaxTotalBytes].
  std::int64_t Amount(std::string_view key) const { return IntIn(key, 0, kMaxTotalBytes); }
  // A memory space id: [0, int32 max].
  std::int32_t Space(std::string_view key) const;
  double Number(std::string_view key) const;
  std::string String(std::string_view key) const;
  // A string, or nullopt for null.
  std::optional<std::string> StringOrNull(std::string_view key) const;
  bool Bool(std::string_view key) const;
  const Json& Array(std::string_view key) const;
  const std::string& pointer() const { return pointer_; }

 private:
  const Json& value_;
  std::string pointer_;
};

}  // namespace memplan::json_internal
