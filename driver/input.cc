#include "driver/input.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <utility>

#include "driver/tflite_offline.h"
#include "fmt/format.h"
#include "io/csv/reader.h"
#include "io/file_io.h"
#include "io/hlo/importer.h"
#include "io/hlo/parser.h"
#include "io/onnx/importer.h"
#include "io/tflite/importer.h"
#include "io/tflite/offline_plan.h"
#include "ir/diagnostic.h"
#include "ir/dims.h"
#include "ir/text_parser.h"
#include "regions/region_partition.h"
#include "verify/schedule_checks.h"

namespace memplan {
namespace {

bool HasSuffixIgnoringCase(const std::string& s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - suffix.size(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
}

absl::StatusOr<LoadedInput> FromProgram(InputFormat format, Program program,
                                        const LoadOptions& options) {
  std::optional<ReorderResult> reorder;
  std::shared_ptr<const LoadedInput> input_order;
  if (options.reorder) {
    if (options.keep_input_order) {
      LoadOptions as_given = options;
      as_given.reorder = false;
      as_given.keep_input_order = false;
      absl::StatusOr<LoadedInput> loaded = FromProgram(format, program, as_given);
      if (!loaded.ok()) return loaded.status();
      input_order = std::make_shared<const LoadedInput>(*std::move(loaded));
    }
    absl::StatusOr<ReorderResult> reordered = ReorderProgram(program);
    if (!reordered.ok()) return reordered.status();
    if (absl::Status s = VerifyReorderedSchedule(program, reordered->program); !s.ok()) {
      return absl::InternalError(fmt::format("{}: error: the reordered schedule fails verification "
                                             "(a bug in memplan): {}",
                                             program.source, std::string(s.message())));
    }
    program = std::move(reordered->program);
    reordered->program = Program{};
    if (reordered->strategy == "input") input_order.reset();  // the same order
    reorder = *std::move(reordered);
  }
  if (options.regions_per) {
    absl::StatusOr<Program> wrapped = PartitionIntoRegions(program, *options.regions_per);
    if (!wrapped.ok()) return wrapped.status();
    program = *std::move(wrapped);
  }
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(program);
  if (!analysis.ok()) return analysis.status();
  LoadedInput input;
  input.format = format;
  input.buffers = analysis->buffers;
  input.program = std::move(program);
  input.analysis = *std::move(analysis);
  input.reorder = std::move(reorder);
  input.input_order = std::move(input_order);
  return input;
}

// Reads `path` as text IR. A parse error of a file not named .mpir says why
// the file was read as text IR: often it is in another format.
absl::StatusOr<Program> ReadTextIr(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<Program> program = ParseProgram(*text, path);
  if (program.ok() || HasSuffixIgnoringCase(path, ".mpir")) return program;
  return absl::InvalidArgumentError(
      fmt::format("{} (read as memplan text IR because the file name does not end in .csv, "
                  ".onnx, .tflite, .hlo or .hlo.txt, and the file starts with neither "
                  "`HloModule` nor a TFLite identifier)",
                  std::string(program.status().message())));
}

// --no-alias applies only to ONNX models; --dim to ONNX models and text IR
// (whose `dim` declarations it binds).
absl::Status CheckProgramOnlyOptions(const std::string& path, InputFormat format,
                                     const LoadOptions& options) {
  if (options.offline_plan && format != InputFormat::kTflite) {
    return LocatedError(path, SourceLocation{},
                        fmt::format("--offline-plan applies only to TFLite models; this input is "
                                    "read as {}",
                                    InputFormatName(format)));
  }
  if (format != InputFormat::kOnnx && (!options.input_shapes.empty() || options.batch)) {
    return LocatedError(path, SourceLocation{},
                        fmt::format("{} applies only to ONNX models; this input is read as {}",
                                    options.batch ? "--batch" : "--input-shape",
                                    InputFormatName(format)));
  }
  if (format == InputFormat::kOnnx || format == InputFormat::kTflite) return absl::OkStatus();
  if (!options.alias) {
    return LocatedError(path, SourceLocation{},
                        fmt::format("--no-alias applies only to ONNX models; this input is read as {}",
                                    InputFormatName(format)));
  }
  if (format == InputFormat::kLifetimeCsv && options.reorder) {
    return LocatedError(path, SourceLocation{},
                        "--reorder applies only to programs (ONNX and TFLite models, memplan text "
                        "IR); a lifetime CSV has no ops to reorder");
  }
  if (format == InputFormat::kLifetimeCsv && options.regions_per) {
    return LocatedError(path, SourceLocation{},
                        "--regions applies only to programs (ONNX models and memplan text IR); "
                        "this input is read as a lifetime CSV");
  }
  if (format == InputFormat::kHlo && !options.dims.empty()) {
    return LocatedError(path, SourceLocation{},
                        "--dim applies only to ONNX models and memplan text IR; HLO modules have "
                        "static shapes");
  }
  if (format == InputFormat::kLifetimeCsv && !options.dims.empty()) {
    return LocatedError(path, SourceLocation{},
                        fmt::format("--dim applies only to ONNX models and memplan text IR; this "
                                    "input is read as {}",
                                    InputFormatName(format)));
  }
  return absl::OkStatus();
}

struct TfliteLoaded {
  Program program;
  TfliteInputInfo info;
};

// Parses and imports a TFLite model; with --offline-plan its metadata plan
// fixes the offsets of the tensors it names (views only where they agree).
absl::StatusOr<TfliteLoaded> LoadTflite(const std::string& path, const LoadOptions& options) {
  if (!options.dims.empty()) {
    return LocatedError(path, SourceLocation{},
                        "--dim applies only to ONNX models and memplan text IR; TFLite models "
                        "have static shapes");
  }
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<TfliteModel> model = ParseTfliteModel(
      reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size(), path);
  if (!model.ok()) return model.status();
  absl::StatusOr<std::vector<std::int32_t>> offline = ReadOfflinePlan(*model, *bytes, path);
  if (!offline.ok()) return offline.status();
  if (options.offline_plan && offline->empty()) {
    return LocatedError(path, SourceLocation{},
                        "--offline-plan: the model has no OfflineMemoryAllocation metadata");
  }
  TfliteImportOptions import_options;
  import_options.alias = options.alias;
  if (options.offline_plan) import_options.offline_offsets = *offline;
  absl::StatusOr<TfliteImport> imported = ImportTfliteModel(*model, path, import_options);
  if (!imported.ok()) return imported.status();
  TfliteLoaded loaded{std::move(imported->program), {}};
  loaded.info.tensor_values = std::move(imported->tensor_values);
  loaded.info.entry_operator = std::move(imported->entry_operator);
  loaded.info.offline_offsets = *std::move(offline);
  loaded.info.head = TfliteMicroHeadTensors(*model);
  for (const TfliteSubgraph& sg : model->subgraphs) {
    loaded.info.total_tensors += static_cast<std::int64_t>(sg.tensors.size());
  }
  return loaded;
}

// Whether the file at `path` starts (after whitespace and comments) with
// `HloModule`: an XLA dump such as module_0001.jit_f.after_optimizations.txt.
bool HasHloHeader(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return LooksLikeHloText(head);
}

}  // namespace

SummaryInput SummaryInputOf(const LoadedInput& input) {
  return SummaryInput{input.buffers, input.program ? &*input.program : nullptr,
                      input.analysis ? &input.analysis->schedule : nullptr};
}

const char* InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kLifetimeCsv: return "a lifetime CSV";
    case InputFormat::kOnnx: return "an ONNX model";
    case InputFormat::kTextIr: return "memplan text IR";
    case InputFormat::kTflite: return "a TFLite model";
    case InputFormat::kHlo: return "an HLO module";
  }
  return "";
}

InputFormat DetectFormat(const std::string& path) {
  if (HasSuffixIgnoringCase(path, ".csv")) return InputFormat::kLifetimeCsv;
  if (HasSuffixIgnoringCase(path, ".onnx")) return InputFormat::kOnnx;
  if (HasSuffixIgnoringCase(path, ".tflite") || HasTfliteIdentifier(path)) {
    return InputFormat::kTflite;
  }
  if (HasSuffixIgnoringCase(path, ".hlo") || HasSuffixIgnoringCase(path, ".hlo.txt") ||
      HasHloHeader(path)) {
    return InputFormat::kHlo;
  }
  return InputFormat::kTextIr;
}

absl::StatusOr<LoadedInput> LoadInput(const std::string& path, const LoadOptions& options) {
  const InputFormat format = DetectFormat(path);
  if (absl::Status s = CheckProgramOnlyOptions(path, format, options); !s.ok()) return s;
  absl::StatusOr<LoadedInput> input;
  switch (format) {
    case InputFormat::kLifetimeCsv: {
      absl::StatusOr<BufferSet> buffers = ReadLifetimeCsvFile(path);
      if (!buffers.ok()) return buffers.status();
      input.emplace();
      input->format = InputFormat::kLifetimeCsv;
      input->buffers = *std::move(buffers);
      break;
    }
    case InputFormat::kOnnx: {
      OnnxImportOptions onnx_options;
      onnx_options.dims = options.dims;
      onnx_options.alias = options.alias;
      onnx_options.input_shapes = OnnxInputShapes{options.input_shapes, options.batch};
      absl::StatusOr<OnnxPrograms> programs =
          ImportOnnxPrograms(path, onnx_options, options.keep_unaliased);
      if (!programs.ok()) return programs.status();
      input = FromProgram(InputFormat::kOnnx, std::move(programs->program), options);
      if (!input.ok() || !programs->unaliased) break;
      absl::StatusOr<LoadedInput> unaliased =
          FromProgram(InputFormat::kOnnx, *std::move(programs->unaliased), options);
      if (!unaliased.ok()) return unaliased.status();
      input->unaliased = std::make_shared<const LoadedInput>(*std::move(unaliased));
      break;
    }
    case InputFormat::kTflite: {
      absl::StatusOr<TfliteLoaded> loaded = LoadTflite(path, options);
      if (!loaded.ok()) return loaded.status();
      input = FromProgram(InputFormat::kTflite, std::move(loaded->program), options);
      if (!input.ok()) break;
      input->tflite = std::move(loaded->info);
      if (options.offline_plan) {
        if (absl::Status s = FixTfliteOfflineOffsets(*input); !s.ok()) return s;
      }
      break;
    }
    case InputFormat::kHlo: {
      absl::StatusOr<std::string> text = ReadFile(path);
      if (!text.ok()) return text.status();
      absl::StatusOr<Program> program = ImportHloText(*text, path);
      if (!program.ok()) return program.status();
      input = FromProgram(InputFormat::kHlo, *std::move(program), options);
      break;
    }
    case InputFormat::kTextIr: {
      absl::StatusOr<Program> program = ReadTextIr(path);
      if (!program.ok()) return program.status();
      if (absl::Status s = BindDims(*program, options.dims); !s.ok()) return s;
      input = FromProgram(InputFormat::kTextIr, *std::move(program), options);
      break;
    }
  }
  if (!input.ok()) return input.status();
  if (absl::Status s = CheckInputLimits(*input, 1); !s.ok()) return s;
  return input;
}

absl::StatusOr<LoadedInput> LoadProgram(Program program, const LoadOptions& options) {
  absl::StatusOr<LoadedInput> input = FromProgram(InputFormat::kTextIr, std::move(program), options);
  if (!input.ok()) return input.status();
  if (absl::Status s = CheckInputLimits(*input, 1); !s.ok()) return s;
  return input;
}

absl::Status CheckInputLimits(const LoadedInput& input, Bytes alignment) {
  const std::string& path = input.buffers.input;
  if (alignment < 1 || alignment > kMaxAlignment) {
    return LocatedError(path, SourceLocation{},
                        fmt::format("alignment {} is outside the supported range 1 to 2^32 "
                                    "({})",
                                    alignment, kMaxAlignment));
  }
  if (input.buffers.time_steps > kMaxTimeSteps) {
    return LocatedError(path, SourceLocation{},
                        fmt::format("the input spans {} time steps, above the limit of 2^62 ({})",
                                    input.buffers.time_steps, kMaxTimeSteps));
  }
  // Where a buffer is defined, for program inputs: its first value's
  // location, or for an op's scratch buffer the op's (looked up only for
  // the buffer an error names).
  const auto where = [&](const Buffer& b) {
    if (!input.program) return SourceLocation{};
    if (!b.values.empty() && b.values[0] >= 0 &&
        b.values[0] < static_cast<ValueId>(input.program->values.size())) {
      return input.program->values[b.values[0]].loc;
    }
    if (input.analysis) {
      const auto id = static_cast<BufferId>(&b - input.buffers.buffers.data());
      const std::vector<OpBuffers>& ops = input.analysis->op_buffers;
      for (std::size_t o = 0; o < ops.size() && o < input.program->ops.size(); ++o) {
        if (ops[o].scratch == id) return input.program->ops[o].loc;
      }
    }
    return SourceLocation{};
  };
  // Compared by subtraction: total and each padded size stay far below
  // int64's maximum, their sum might not.
  Bytes total = 0;
  for (const Buffer& b : input.buffers.buffers) {
    if (b.alignment > kMaxAlignment) {
      return LocatedError(path, where(b),
                          fmt::format("buffer '{}' needs alignment {}, above the limit of 2^32 "
                                      "({}) bytes",
                                      b.name, b.alignment, kMaxAlignment));
    }
    // Each buffer is aligned to the larger of its alignment and
    // --alignment, which is a multiple of both only when one divides the
    // other (always for powers of two).
    if (b.alignment > 1 && alignment > 1 &&
        std::max(b.alignment, alignment) % std::min(b.alignment, alignment) != 0) {
      const auto i = static_cast<std::size_t>(&b - input.buffers.buffers.data());
      const std::optional<CsvRowFields> fields = CsvFieldsOf(input.buffers, i);
      return LocatedError(
          path, fields ? fields->alignment : where(b),
          fmt::format("buffer '{}' needs alignment {}, and --alignment {} is neither a multiple "
                      "nor a divisor of it (memplan aligns a buffer to the larger of the two)",
                      b.name, b.alignment, alignment));
    }
    if (b.size > kMaxTotalBytes) {
      return LocatedError(path, where(b),
                          fmt::format("buffer '{}' is {} bytes, above the limit of 2^62 ({}) "
                                      "bytes per input",
                                      b.name, b.size, kMaxTotalBytes));
    }
    const Bytes padded = b.size + std::max(b.alignment, alignment) - 1;
    if (padded > kMaxTotalBytes) {
      return LocatedError(path, where(b),
                          fmt::format("buffer '{}' is {} bytes plus up to {} bytes of alignment "
                                      "padding, above the limit of 2^62 ({}) bytes per input",
                                      b.name, b.size, padded - b.size, kMaxTotalBytes));
    }
    if (padded > kMaxTotalBytes - total) {
      return LocatedError(
          path, SourceLocation{},
          fmt::format("the buffers total more than 2^62 ({}) bytes counting alignment padding "
                      "(reached at buffer '{}'); memplan plans at most that much",
                      kMaxTotalBytes, b.name));
    }
    total += padded;
  }
  // Fixed offsets: aligned to --alignment too, and the free buffers stacked
  // above the highest fixed one still fit the limit.
  Bytes fixed_end = 0;
  for (std::size_t i = 0; i < input.buffers.buffers.size(); ++i) {
    const Buffer& b = input.buffers.buffers[i];
    if (!b.fixed_offset()) continue;
    if (*b.fixed_offset() % alignment != 0) {
      const std::optional<CsvRowFields> fields = CsvFieldsOf(input.buffers, i);
      return LocatedError(path, fields ? fields->offset : SourceLocation{},
                          fmt::format("buffer '{}' has the fixed offset {}, not a multiple of "
                                      "--alignment {}",
                                      b.name, *b.fixed_offset(), alignment));
    }
    fixed_end = std::max(fixed_end, *b.fixed_offset() + b.size);
  }
  if (fixed_end > kMaxTotalBytes - total) {
    return LocatedError(path, SourceLocation{},
                        fmt::format("the highest fixed buffer ends at {} bytes; with the other "
                                    "buffers' {} bytes (counting alignment padding) that is above "
                                    "the limit of 2^62 ({}) bytes",
                                    fixed_end, total, kMaxTotalBytes));
  }
  return absl::OkStatus();
}

ComputationId ReorderedCallee(const LoadedInput& input) {
  if (!input.reorder || !input.program) return kNoId;
  for (ComputationId c : input.reorder->changed) {
    if (c != input.program->entry) return c;
  }
  return kNoId;
}

}  // namespace memplan
