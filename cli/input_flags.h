// Flags shared by verbs that read an input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "driver/input.h"

namespace memplan::cli {

// Flags shared by verbs that read an input.
struct InputFlags {
  std::string input;
  std::vector<std::string> dims;  // NAME=VALUE
  std::vector<std::string> input_shapes;  // NAME=8x3x224x224
  bool no_alias = false;
  bool reorder = false;           // --reorder
  bool regions = false;           // --regions
  std::int64_t regions_per = 0;   // --regions-per N (ops per region)
  const CLI::Option* regions_per_option = nullptr;
};

// The INPUT argument's help, shared by every command that loads an input.
inline constexpr const char* kInputHelp =
    "input, by extension (any case): .csv lifetimes, .onnx model, .tflite model, else text IR";

// Adds INPUT, --dim, --input-shape, --no-alias, --reorder, --regions and --regions-per to `cmd`.
void AddInputFlags(CLI::App* cmd, InputFlags& flags);

// The load options from `flags`. Errors: usage errors (exit 2) for a
// malformed or repeated --dim or --input-shape, --regions-per without
// --regions.
absl::StatusOr<LoadOptions> ToLoadOptions(const InputFlags& flags);

}  // namespace memplan::cli
