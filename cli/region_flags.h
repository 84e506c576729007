// Execution-region allocation flags of `plan` and `sweep` (programs with regions).
#pragma once

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "regions/allocate_regions.h"

namespace memplan::cli {

// Execution-region allocation flags of `plan` (programs with regions).
struct RegionFlags {
  std::string pack = "auto";
  std::string offset_alignment = "64";
  std::string range_alignment = "64";
  std::string max_allocation_size;
  std::vector<const CLI::Option*> given;  // any of them set explicitly
  const CLI::Option* max_allocation_option = nullptr;
};

// Adds --pack, --offset-alignment, --range-alignment and
// --max-allocation-size to `cmd`.
void AddRegionFlags(CLI::App* cmd, RegionFlags& flags);

// The region options from `flags`. Errors: usage errors (exit 2) for an
// unknown --pack, an alignment outside 1 to 2^32, a zero allocation size.
absl::StatusOr<RegionPlanOptions> ToRegionOptions(const RegionFlags& flags);

}  // namespace memplan::cli
