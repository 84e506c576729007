// Machine descriptions for memory space assignment: compute rates, memory
// bandwidths and the fast (alternate) memory. Presets are listed by
// `memplan targets`; a JSON file with the same fields defines a custom one.
//
// JSON form (all fields required except name/description):
//   {"name": "my-npu", "description": "...", "flops_per_second": 4e12,
//    "transcendentals_per_second": 1e11, "default_bandwidth": 1.6e10,
//    "alternate_bandwidth": 1.28e11, "copy_bandwidth": 1.6e10,
//    "fast_memory_bytes": 2097152, "alignment": 64}
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/units.h"

namespace memplan {

struct Target {
  std::string name;
  std::string description;
  double flops_per_second = 1e12;
  double transcendentals_per_second = 1e11;
  double default_bandwidth = 1e10;    // bytes/s of the default memory (DRAM/HBM)
  double alternate_bandwidth = 1e11;  // bytes/s of the alternate (fast) memory
  double copy_bandwidth = 1e10;       // bytes/s of one async copy (DMA) queue
  Bytes fast_memory_bytes = 0;        // alternate-memory size when not overridden
  Bytes alignment = 1;                // alternate-memory offset alignment
};

// The built-in presets, in listing order (name first).
const std::vector<Target>& BuiltinTargets();

// OK if `t` describes a usable machine: every rate and bandwidth positive,
// finite and <= 1e18 (per second), alternate_bandwidth >= default_bandwidth
// (fast memory is not slower), 0 <= fast_memory_bytes <= kMaxTotalBytes (2^62),
// 1 <= alignment <= kMaxAlignment (2^32; any integer, not only powers of two).
// Errors: InvalidArgument "error: target 'NAME': ..." naming the field. For
// targets built in code or with overridden fields; ResolveTarget already
// applies the same rules to files, with their location.
absl::Status ValidateTarget(const Target& t);

// A preset by name, or a JSON file (any argument containing '/' or ending in
// ".json"). Errors: InvalidArgument naming the unknown preset (with the list)
// or `path:line:col: error: ...` naming the field for a bad file (missing
// field, wrong type, unknown or duplicate key, a rate that is not positive,
// finite and <= 1e18, alternate_bandwidth < default_bandwidth,
// fast_memory_bytes outside [0, 2^62], alignment outside [1, 2^32]).
absl::StatusOr<Target> ResolveTarget(std::string_view name_or_path);

}  // namespace memplan
