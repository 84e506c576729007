#include "cli/region_flags.h"

#include <utility>

#include "cli/cli_support.h"
#include "fmt/format.h"
#include "packing/packer.h"

namespace memplan::cli {

void AddRegionFlags(CLI::App* cmd, RegionFlags& flags) {
  const std::string group = "Execution regions (IREE-style allocation)";
  flags.given.push_back(
      cmd->add_option("--pack", flags.pack,
                      "slab layout: in-order (IREE's LayoutSlices) or a packing algorithm "
                      "(default auto)")
          ->group(group));
  flags.given.push_back(cmd->add_option("--offset-alignment", flags.offset_alignment,
                                        "every slice offset is a multiple (default 64)")
                            ->group(group));
  flags.given.push_back(cmd->add_option("--range-alignment", flags.range_alignment,
                                        "slice and allocation sizes are padded to a multiple "
                                        "(default 64)")
                            ->group(group));
  flags.max_allocation_option =
      cmd->add_option("--max-allocation-size", flags.max_allocation_size,
                      "split uploads, result reservations and slabs above this size")
          ->group(group);
  flags.given.push_back(flags.max_allocation_option);
}

absl::StatusOr<RegionPlanOptions> ToRegionOptions(const RegionFlags& flags) {
  RegionPlanOptions options;
  if (flags.pack != "in-order") {
    absl::StatusOr<PackingAlgorithm> algorithm = ParsePackingAlgorithm(flags.pack);
    if (!algorithm.ok()) {
      return UsageError(fmt::format("--pack expects in-order or a packing algorithm: {}",
                                    std::string(algorithm.status().message())));
    }
  }
  options.pack = flags.pack;
  const std::pair<const char*, const std::string*> alignments[] = {
      {"--offset-alignment", &flags.offset_alignment},
      {"--range-alignment", &flags.range_alignment}};
  Bytes* targets[] = {&options.offset_alignment, &options.range_alignment};
  for (std::size_t i = 0; i < 2; ++i) {
    absl::StatusOr<Bytes> bytes = SizeFlag(alignments[i].first, *alignments[i].second);
    if (!bytes.ok()) return bytes.status();
    if (*bytes < 1 || *bytes > kMaxAlignment) {
      return UsageError(fmt::format("{} {} is outside the supported range 1 to 2^32 ({})",
                                    alignments[i].first, *bytes, kMaxAlignment));
    }
    *targets[i] = *bytes;
  }
  if (Given(flags.max_allocation_option)) {
    absl::StatusOr<Bytes> bytes = SizeFlag("--max-allocation-size", flags.max_allocation_size);
    if (!bytes.ok()) return bytes.status();
    if (*bytes < 1) return UsageError("--max-allocation-size must be at least 1 byte");
    options.max_allocation_size = *bytes;
  }
  return options;
}

}  // namespace memplan::cli
