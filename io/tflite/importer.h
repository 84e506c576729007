// TFLite model (.tflite) -> memplan Program (docs/tflite.md).
//
// Subgraph 0 is the entry computation "main" (or its name), scheduled in
// operator order:
//   * its input tensors -> parameters of the transient lifetime: TFLite
//     Micro plans graph inputs and outputs in the arena head with the
//     activations, so memplan does too (live from the first step / to the last);
//   * tensors with data in a non-empty Buffer -> parameters of the constant
//     lifetime (weights), `is_variable` tensors -> parameters of the variable
//     lifetime (persistent state, e.g. LSTM cells);
//   * operator -> op `tflite.<BUILTIN>` (e.g. `tflite.CONV_2D`;
//     `tflite.custom.<custom_code>` for CUSTOM), operands its inputs (-1,
//     an absent optional input, skipped), results its outputs and then its
//     intermediates; cost from io/tflite/cost.h;
//   * RESHAPE, SQUEEZE and EXPAND_DIMS -> a view (offset 0) of their data
//     input when the sizes match and the input is an activation written by
//     an earlier op (not a weight, variable or graph input), as TFLite
//     Micro's reshape kernels skip the copy when input and output share bytes;
//   * IF -> conditional (branches: the then and else subgraphs), WHILE ->
//     while (cond, body), CALL_ONCE -> call; each called subgraph is imported
//     once per call site as "@<subgraph name or sgN>/<site>", its constants
//     as `constant` ops; a loop's initial value is copied unless the loop is
//     its last reader; a subgraph result that is not fresh storage is copied.
//   * subgraph 0's outputs -> the entry's results (transient).
// Value names are the tensor names (unique; "t<index>" for unnamed ones,
// ".1", ".2", ... against clashes); called subgraphs' values are prefixed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "io/tflite/model.h"
#include "ir/program.h"

namespace memplan {

struct TfliteImportOptions {
  bool alias = true;  // RESHAPE/SQUEEZE/EXPAND_DIMS as views
  // Per tensor of subgraph 0, a fixed arena-head offset (an offline plan,
  // io/tflite/offline_plan.h) or -1. Views are made only where input and
  // output agree (both -1 or equal).
  std::vector<std::int32_t> offline_offsets;
};

struct TfliteImport {
  Program program;
  // Per tensor of subgraph 0: its value, kNoId for a tensor no operator or
  // graph input/output touches.
  std::vector<ValueId> tensor_values;
  // Per op: the index of the subgraph 0 operator it imports, -1 for the
  // ops memplan adds (copies) and those of called subgraphs.
  std::vector<std::int32_t> entry_operator;
};

// Imports `model` (read from `path`) and validates the program. Errors:
// InvalidArgument `path: error: ...` naming the subgraph and tensor or
// operator: a tensor of no fixed size (STRING, unknown type codes), a
// negative dim or a shape past 2^62 bytes, a tensor read before any
// operator writes it, a subgraph that calls itself (directly or not), more
// than 10^6 imported ops (subgraphs inlined per call site), control flow
// whose subgraph signatures do not match the operator.
absl::StatusOr<TfliteImport> ImportTfliteModel(const TfliteModel& model, const std::string& path,
                                               const TfliteImportOptions& options);

// Reads and imports the file at `path` (ParseTfliteModel, then
// ImportTfliteModel). Errors: those, and an unreadable file.
absl::StatusOr<TfliteImport> ImportTflite(const std::string& path,
                                          const TfliteImportOptions& options);

// "CONV_2D" for builtin code 3; "BUILTIN_<n>" for codes without a name here.
std::string TfliteBuiltinName(std::int32_t builtin);

}  // namespace memplan
