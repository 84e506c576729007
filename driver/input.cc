#include "driver/input.h"

#include <utility>

#include "io/csv_reader.h"
#include "io/onnx_importer.h"
#include "ir/text_parser.h"

namespace memplan {
namespace {

bool HasSuffix(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

absl::StatusOr<LoadedInput> FromProgram(InputFormat format, Program program) {
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(program);
  if (!analysis.ok()) return analysis.status();
  LoadedInput input;
  input.format = format;
  input.buffers = analysis->buffers;
  input.program = std::move(program);
  input.analysis = *std::move(analysis);
  return input;
}

}  // namespace

InputFormat DetectFormat(const std::string& path) {
  if (HasSuffix(path, ".csv")) return InputFormat::kLifetimeCsv;
  if (HasSuffix(path, ".onnx")) return InputFormat::kOnnx;
  return InputFormat::kTextIr;
}

absl::StatusOr<LoadedInput> LoadInput(const std::string& path, const LoadOptions& options) {
  switch (DetectFormat(path)) {
    case InputFormat::kLifetimeCsv: {
      absl::StatusOr<BufferSet> buffers = ReadLifetimeCsvFile(path);
      if (!buffers.ok()) return buffers.status();
      LoadedInput input;
      input.format = InputFormat::kLifetimeCsv;
      input.buffers = *std::move(buffers);
      return input;
    }
    case InputFormat::kOnnx: {
      OnnxImportOptions onnx_options;
      onnx_options.dims = options.dims;
      onnx_options.alias = options.alias;
      absl::StatusOr<Program> program = ImportOnnx(path, onnx_options);
      if (!program.ok()) return program.status();
      return FromProgram(InputFormat::kOnnx, *std::move(program));
    }
    case InputFormat::kTextIr: {
      absl::StatusOr<Program> program = ParseProgramFile(path);
      if (!program.ok()) return program.status();
      return FromProgram(InputFormat::kTextIr, *std::move(program));
    }
  }
  return absl::InternalError("unreachable");
}

}  // namespace memplan
