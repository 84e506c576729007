#include "ir/dtype.h"

#include <array>
#include <string>
#include <utility>

#include "absl/status/status.h"

namespace memplan {
namespace {

// Name -> storage bits. XLA spells signed integers sN, MLIR iN: both accepted.
constexpr std::array<std::pair<std::string_view, int>, 38> kDtypes = {{
    {"pred", 8},     {"bool", 8},        {"i1", 8},
    {"i2", 2},       {"u2", 2},          {"s2", 2},
    {"i4", 4},       {"u4", 4},          {"s4", 4},
    {"i8", 8},       {"u8", 8},          {"s8", 8},
    {"i16", 16},     {"u16", 16},        {"s16", 16},
    {"i32", 32},     {"u32", 32},        {"s32", 32},
    {"i64", 64},     {"u64", 64},        {"s64", 64},
    {"f16", 16},     {"bf16", 16},       {"f32", 32},
    {"f64", 64},     {"c64", 64},        {"c128", 128},
    {"f8e4m3", 8},   {"f8e4m3fn", 8},    {"f8e4m3fnuz", 8},
    {"f8e4m3b11fnuz", 8}, {"f8e5m2", 8}, {"f8e5m2fnuz", 8},
    {"f8e3m4", 8},   {"f8e8m0fnu", 8},   {"f6e2m3fn", 6},
    {"f6e3m2fn", 6}, {"f4e2m1fn", 4},
}};

}  // namespace

std::optional<int> DtypeBits(std::string_view dtype) {
  for (const auto& [name, bits] : kDtypes) {
    if (name == dtype) return bits;
  }
  return std::nullopt;
}

absl::StatusOr<Bytes> TensorBytes(const TensorType& type) {
  const std::optional<int> bits = DtypeBits(type.dtype);
  if (!bits) return absl::InvalidArgumentError("unknown dtype '" + type.dtype + "'");
  Bytes elements = 1;
  for (std::int64_t dim : type.dims) {
    if (dim < 0) return absl::InvalidArgumentError("negative dimension " + std::to_string(dim));
    if (__builtin_mul_overflow(elements, dim, &elements)) {
      return absl::InvalidArgumentError("tensor size overflows int64");
    }
  }
  // ceil(elements * bits / 8) without forming elements * bits.
  Bytes whole = 0;
  if (__builtin_mul_overflow(elements / 8, static_cast<Bytes>(*bits), &whole)) {
    return absl::InvalidArgumentError("tensor size overflows int64");
  }
  const Bytes rest = ((elements % 8) * *bits + 7) / 8;
  Bytes total = 0;
  if (__builtin_add_overflow(whole, rest, &total)) {
    return absl::InvalidArgumentError("tensor size overflows int64");
  }
  return total;
}

}  // namespace memplan
