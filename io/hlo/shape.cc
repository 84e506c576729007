#include "io/hlo/shape.h"

#include <array>
#include <utility>


namespace memplan {
namespace {

constexpr std::int64_t kLimit = std::int64_t{1} << 62;

constexpr std::array<std::pair<std::string_view, int>, 32> kElementBits = {{
    {"pred", 8},        {"s2", 2},           {"s4", 4},           {"s8", 8},
    {"s16", 16},        {"s32", 32},         {"s64", 64},         {"u2", 2},
    {"u4", 4},          {"u8", 8},           {"u16", 16},         {"u32", 32},
    {"u64", 64},        {"f16", 16},         {"bf16", 16},        {"f32", 32},
    {"f64", 64},        {"c64", 64},         {"c128", 128},       {"f8e5m2", 8},
    {"f8e4m3fn", 8},    {"f8e4m3b11fnuz", 8}, {"f8e5m2fnuz", 8},  {"f8e4m3fnuz", 8},
    {"f8e4m3", 8},      {"f8e3m4", 8},       {"f8e8m0fnu", 8},    {"f4e2m1fn", 4},
    {"f6e2m3fn", 6},    {"f6e3m2fn", 6},     {"token", 0},        {"opaque", 0},
}};

}  // namespace

std::optional<int> HloElementBits(std::string_view type) {
  for (const auto& [name, bits] : kElementBits) {
    if (name == type) return bits;
  }
  return std::nullopt;
}

std::int64_t HloElementCount(const HloShape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape.dims) {
    if (d == 0) return 0;
    if (n > kLimit / d) return kLimit;
    n *= d;
  }
  return n;
}

std::optional<Bytes> HloArrayBytes(const HloShape& shape) {
  const std::int64_t bits = HloElementBits(shape.element_type).value_or(0);
  const std::int64_t n = HloElementCount(shape);
  if (n >= kLimit || (bits > 0 && n > kLimit / bits)) return std::nullopt;
  return (n * bits + 7) / 8;
}

void HloLeaves(const HloShape& shape, std::vector<const HloShape*>& out) {
  if (!shape.is_tuple) {
    out.push_back(&shape);
    return;
  }
  for (const HloShape& e : shape.elements) HloLeaves(e, out);
}

std::size_t HloShape::LeafCount() const {
  if (!is_tuple) return 1;
  std::size_t n = 0;
  for (const HloShape& e : elements) n += e.LeafCount();
  return n;
}

std::string HloShape::ToString() const {
  if (is_tuple) {
    std::string text = "(";
    for (std::size_t i = 0; i < elements.size(); ++i) {
      text += (i ? ", " : "") + elements[i].ToString();
    }
    return text + ")";
  }
  std::string text = element_type + "[";
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

bool HloShape::SameAs(const HloShape& other) const {
  if (is_tuple != other.is_tuple) return false;
  if (!is_tuple) return element_type == other.element_type && dims == other.dims;
  if (elements.size() != other.elements.size()) return false;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (!elements[i].SameAs(other.elements[i])) return false;
  }
  return true;
}

const HloAttribute* HloInstruction::Find(const std::string& key) const {
  for (const HloAttribute& a : attributes) {
    if (a.key == key) return &a;
  }
  return nullptr;
}

const HloAttribute* HloModule::Find(const std::string& key) const {
  for (const HloAttribute& a : attributes) {
    if (a.key == key) return &a;
  }
  return nullptr;
}

}  // namespace memplan
