#include "cli/input_flags.h"

#include <charconv>
#include <utility>

#include "cli/cli_support.h"
#include "fmt/format.h"

namespace memplan::cli {
namespace {

// "input=8x3x224x224" -> {"input", {8, 3, 224, 224}}; the name ends at the
// last '='.
absl::StatusOr<std::pair<std::string, std::vector<std::int64_t>>> ParseInputShape(
    const std::string& given) {
  const auto bad = [&] {
    return UsageError(fmt::format(
        "--input-shape expects NAME=DIMS with DIMS positive integers joined by 'x' (e.g. "
        "input=8x3x224x224), got '{}'",
        given));
  };
  const size_t eq = given.rfind('=');
  if (eq == 0 || eq == std::string::npos || eq + 1 == given.size()) return bad();
  std::vector<std::int64_t> dims;
  for (size_t begin = eq + 1; begin <= given.size();) {
    size_t end = given.find('x', begin);
    if (end == std::string::npos) end = given.size();
    std::int64_t value = 0;
    const auto [stop, error] = std::from_chars(given.data() + begin, given.data() + end, value);
    if (error != std::errc() || stop != given.data() + end || value <= 0) return bad();
    dims.push_back(value);
    begin = end + 1;
  }
  return std::make_pair(given.substr(0, eq), std::move(dims));
}

}  // namespace

void AddInputFlags(CLI::App* cmd, InputFlags& flags) {
  cmd->add_option("INPUT", flags.input,
                  kInputHelp)
      ->required();
  cmd->add_option("--dim", flags.dims,
                  "bind a symbolic dim (an ONNX dim_param or a text IR `dim`), e.g. --dim "
                  "batch=8 (repeatable, one per name)");
  cmd->add_option("--input-shape", flags.input_shapes,
                  "ONNX: give a graph input new static dims, e.g. --input-shape "
                  "input=8x3x224x224 (repeatable, one per input); every other shape is inferred "
                  "again");
  cmd->add_flag("--no-alias", flags.no_alias,
                "ONNX: no views or in-place reuse (every tensor gets its own buffer)");
  cmd->add_flag("--reorder", flags.reorder,
                "programs: run the ops in the order (of several strategies') with the lowest "
                "transient max-live, never above the input order's (docs/reorder.md)");
  cmd->add_flag("--regions", flags.regions,
                "plan a flat program (an ONNX model) as one IREE-style execution region: weights "
                "as constant uploads, outputs as result reservations, activations in a slab");
  flags.regions_per_option =
      cmd->add_option("--regions-per", flags.regions_per,
                      "with --regions: one region per N ops instead of one for the whole program")
          ->check(Count(1));
}

absl::StatusOr<LoadOptions> ToLoadOptions(const InputFlags& flags) {
  LoadOptions options;
  options.alias = !flags.no_alias;
  options.reorder = flags.reorder;
  if (Given(flags.regions_per_option) && !flags.regions) {
    return UsageError("--regions-per applies with --regions");
  }
  if (flags.regions) options.regions_per = Given(flags.regions_per_option) ? flags.regions_per : 0;
  for (const std::string& binding : flags.dims) {
    size_t eq = binding.find('=');
    std::string name = eq == std::string::npos ? "" : binding.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : binding.substr(eq + 1);
    std::int64_t parsed = 0;
    size_t used = 0;
    bool ok = !name.empty() && !value.empty();
    if (ok) {
      try {
        parsed = std::stoll(value, &used);
      } catch (...) {
        ok = false;
      }
    }
    if (!ok || used != value.size() || parsed <= 0) {
      return UsageError(
          fmt::format("--dim expects NAME=POSITIVE_INTEGER, got '{}'", binding));
    }
    if (auto [it, inserted] = options.dims.emplace(name, parsed); !inserted) {
      return UsageError(fmt::format("--dim {} is given twice ({}={} and {}={})", name, name,
                                    it->second, name, parsed));
    }
  }
  for (const std::string& given : flags.input_shapes) {
    absl::StatusOr<std::pair<std::string, std::vector<std::int64_t>>> shape = ParseInputShape(given);
    if (!shape.ok()) return shape.status();
    if (auto [it, inserted] = options.input_shapes.emplace(shape->first, shape->second); !inserted) {
      return UsageError(fmt::format("--input-shape {} is given twice", shape->first));
    }
  }
  return options;
}

}  // namespace memplan::cli
