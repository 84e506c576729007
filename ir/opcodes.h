// The opcode vocabulary of the IR. Known opcodes are listed in opcodes.cc;
// any opcode containing a '.' is a namespaced custom op (e.g. `onnx.Conv`,
// `custom.my_kernel`) and is treated as compute. Everything else is unknown.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ir/program.h"

namespace memplan {

// The kind of `opcode`, or nullopt if the opcode is unknown.
// Examples: "add" -> kCompute, "while" -> kWhile, "copy-start" -> kAsyncStart,
// "onnx.Conv" -> kCompute, "frobnicate" -> nullopt.
std::optional<OpKind> ClassifyOpcode(std::string_view opcode);

// For an async pair opcode X-start or X-done, the prefix X ("copy-start" ->
// "copy"); nullopt for other opcodes.
std::optional<std::string_view> AsyncPartnerPrefix(std::string_view opcode);

// All known (non-namespaced) opcodes, sorted; for diagnostics and docs.
const std::vector<std::string_view>& KnownOpcodes();

}  // namespace memplan
