// Sizes of HLO shapes: element types and bytes of arrays.
#pragma once

#include <optional>
#include <string_view>

#include "io/hlo/module.h"
#include "ir/program.h"

namespace memplan {

// Storage bits per element of the HLO element type `type` (XLA's spelling:
// pred, s4..s64, u4..u64, f16, bf16, f32, f64, c64, c128, f8e4m3fn, ...);
// 0 for token and opaque (no storage); nullopt for an unknown name.
// Example: "bf16" -> 16, "pred" -> 8, "s4" -> 4, "token" -> 0.
std::optional<int> HloElementBits(std::string_view type);

// Bytes of an array shape: ceil(elements * bits / 8) (sub-byte types packed,
// as XLA stores them). Precondition: `shape` is an array with a known
// element type; nullopt when the size overflows 2^62.
std::optional<Bytes> HloArrayBytes(const HloShape& shape);

// Number of elements of an array shape (1 for a scalar), saturating at 2^62.
std::int64_t HloElementCount(const HloShape& shape);

// The leaf arrays of `shape` in depth-first order.
void HloLeaves(const HloShape& shape, std::vector<const HloShape*>& out);

}  // namespace memplan
