// Loads any supported input into the packing problem (and, for programs, the
// program and its analysis). The format is chosen by file extension:
//   .csv   lifetime CSV (id,lower,upper,size[,alignment]; MiniMalloc style)
//   .onnx  ONNX model (io/onnx_importer.h)
//   other  memplan text IR (docs/ir.md), conventionally .mpir
#pragma once

#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "ir/buffer_set.h"
#include "ir/program.h"

namespace memplan {

enum class InputFormat { kTextIr, kLifetimeCsv, kOnnx };

struct LoadOptions {
  std::map<std::string, std::int64_t> dims;  // ONNX symbolic dim bindings
  bool alias = true;                         // ONNX: views and in-place reuse
};

struct LoadedInput {
  InputFormat format = InputFormat::kTextIr;
  std::optional<Program> program;            // absent for CSV input
  std::optional<ProgramAnalysis> analysis;   // absent for CSV input
  BufferSet buffers;
};

// Format implied by `path`'s extension.
InputFormat DetectFormat(const std::string& path);

// Reads and analyses `path`. Errors: InvalidArgument `path:line:col: error: ...`
// for unreadable or malformed input (exit code 2).
absl::StatusOr<LoadedInput> LoadInput(const std::string& path, const LoadOptions& options);

}  // namespace memplan
