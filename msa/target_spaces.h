// The hierarchy form of a target file (issue 27): N memory spaces and the
// DMA links between them, fastest space first.
//
//   {"name": "mcu", "flops_per_second": 4e8, "transcendentals_per_second": 4e7,
//    "spaces": [
//      {"name": "tcm",   "capacity_bytes": 65536, "alignment": 8,
//       "read_bandwidth": 1.6e9, "write_bandwidth": 1.6e9},
//      {"name": "psram", "capacity_bytes": 8388608, "alignment": 32,
//       "read_bandwidth": 1e8, "write_bandwidth": 8e7, "latency_seconds": 1e-7},
//      {"name": "flash", "kind": "flash", "capacity_bytes": 16777216,
//       "read_bandwidth": 5e7, "write_bandwidth": 5e7}],
//    "links": [{"from": "psram", "to": "tcm", "bandwidth": 1e8},
//              {"from": "tcm", "to": "psram", "bandwidth": 8e7},
//              {"from": "flash", "to": "tcm", "bandwidth": 5e7, "queues": 1}]}
//
// Per space: name, capacity_bytes and the two bandwidths (bytes/s an op
// reads / writes it) are required; latency_seconds is the time before a
// copy out of it starts moving data;
// alignment (1), latency_seconds (0), kind ("ram" or "flash"; "ram"),
// writable (false for flash, else true) and devices (names of the devices
// whose ops may access it directly, "*" for all; all) are optional. Per
// link: from, to and bandwidth are required; queues (1: copies it carries at
// once) and max_outstanding (none: copies outstanding at one time step) are
// optional.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "msa/target.h"
#include "nlohmann/json.hpp"

namespace memplan {

// Parses the hierarchy form from `json` (already parsed from `text`, read
// from `path`); the top-level "spaces" key is present. Fills the flat
// fields with the two-space view (msa/target.h). Errors: InvalidArgument
// `path:line:col: error: ...` at the offending key: unknown or missing
// fields, wrong types, rates outside [1, 1e18], capacities outside
// [0, 2^62], alignments outside [1, 2^32], a latency outside [0, 1] s,
// duplicate space names, a writable flash space, no writable space, a first
// (fastest) space that is not writable, an empty device list, a link to or
// from an unknown space, a link from a space to itself or into a read-only
// space, a duplicate link, queues outside [1, 64], max_outstanding < 1, and
// a hierarchy without links both ways between its fastest and its slowest
// writable space.
// Why `value` is not a usable rate (per second) for field `key`: rates are
// finite, from 1 to 1e18. nullopt when it is. Shared with the flat form.
std::optional<std::string> TargetRateProblem(std::string_view key, double value);

// The JSON texts of the hierarchy presets (mcu-tcm-sram-psram-flash,
// npu-3level): examples/targets/NAME.json, built in (msa/CMakeLists.txt).
const std::vector<std::string_view>& HierarchyPresetTexts();

absl::StatusOr<Target> HierarchyTargetFromJson(const nlohmann::json& json, std::string_view text,
                                               std::string_view path);

}  // namespace memplan
