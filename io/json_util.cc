#include "io/json_util.h"

#include <limits>
#include <utility>

#include "fmt/format.h"

namespace memplan::json_internal {

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string Pointer(const std::string& parent, std::string_view key) {
  return fmt::format("{}/{}", parent, key);
}
std::string Pointer(const std::string& parent, std::size_t index) {
  return fmt::format("{}/{}", parent, index);
}

void WrongType(const Json& value, const std::string& pointer, std::string_view want) {
  throw SchemaError{pointer, fmt::format("expected {}, found {}", want, value.type_name())};
}

std::int64_t AsInt(const Json& value, const std::string& pointer) {
  if (!value.is_number_integer()) WrongType(value, pointer, "an integer");
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    throw SchemaError{pointer, "integer out of range"};
  }
  return value.get<std::int64_t>();
}

std::int64_t InRange(std::int64_t v, const std::string& pointer, std::int64_t lo, std::int64_t hi) {
  if (v < lo || v > hi) {
    throw SchemaError{pointer, fmt::format("{} is outside [{}, {}]", v, lo, hi)};
  }
  return v;
}

ObjectReader::ObjectReader(const Json& value, std::string pointer)
    : value_(value), pointer_(std::move(pointer)) {
  if (!value_.is_object()) WrongType(value_, pointer_.empty() ? "/" : pointer_, "an object");
}

const Json& ObjectReader::Get(std::string_view key) const {
  auto it = value_.find(std::string(key));
  if (it == value_.end()) throw SchemaError{Path(key), "missing"};
  return *it;
}

bool ObjectReader::Has(std::string_view key) const { return value_.contains(std::string(key)); }

std::string ObjectReader::Path(std::string_view key) const { return Pointer(pointer_, key); }

std::int64_t ObjectReader::Int(std::string_view key) const { return AsInt(Get(key), Path(key)); }

std::int32_t ObjectReader::Int32(std::string_view key) const {
  const std::int64_t v = Int(key);
  if (v < std::numeric_limits<std::int32_t>::min() ||
      v > std::numeric_limits<std::int32_t>::max()) {
    throw SchemaError{Path(key), "integer out of range"};
  }
  return static_cast<std::int32_t>(v);
}

std::int64_t ObjectReader::IntIn(std::string_view key, std::int64_t lo, std::int64_t hi) const {
  return InRange(Int(key), Path(key), lo, hi);
}

std::int32_t ObjectReader::Space(std::string_view key) const {
  return static_cast<std::int32_t>(IntIn(key, 0, std::numeric_limits<std::int32_t>::max()));
}

double ObjectReader::Number(std::string_view key) const {
  const Json& v = Get(key);
  if (!v.is_number()) WrongType(v, Path(key), "a number");
  return v.get<double>();
}

std::string ObjectReader::String(std::string_view key) const {
  const Json& v = Get(key);
  if (!v.is_string()) WrongType(v, Path(key), "a string");
  return v.get<std::string>();
}

std::optional<std::string> ObjectReader::StringOrNull(std::string_view key) const {
  const Json& v = Get(key);
  if (v.is_null()) return std::nullopt;
  if (!v.is_string()) WrongType(v, Path(key), "a string or null");
  return v.get<std::string>();
}

bool ObjectReader::Bool(std::string_view key) const {
  const Json& v = Get(key);
  if (!v.is_boolean()) WrongType(v, Path(key), "a boolean");
  return v.get<bool>();
}

const Json& ObjectReader::Array(std::string_view key) const {
  const Json& v = Get(key);
  if (!v.is_array()) WrongType(v, Path(key), "an array");
  return v;
}

}  // namespace memplan::json_internal
