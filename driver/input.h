// Loads any supported input into the packing problem (and, for programs, the
// program and its analysis). The format is chosen by the file name's
// extension, compared case-insensitively:
//   .csv   lifetime CSV (id,lower,upper,size[,alignment]; MiniMalloc style)
//   .onnx  ONNX model (io/onnx/importer.h)
//   .tflite TFLite model (io/tflite/importer.h); any file whose bytes 4-7 are
//          the flatbuffer identifier `TFL3` is read as one too
//   other  memplan text IR (docs/ir.md), conventionally .mpir
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "io/tflite/micro_lifetimes.h"
#include "ir/buffer_set.h"
#include "ir/program.h"
#include "report/summary.h"
#include "schedule/reorder.h"

namespace memplan {

enum class InputFormat { kTextIr, kLifetimeCsv, kOnnx, kTflite, kHlo };

struct LoadOptions {
  // Symbolic dim bindings: ONNX dim_params, or text IR `dim`s (ir/dims.h).
  std::map<std::string, std::int64_t> dims;
  bool alias = true;                         // ONNX: views and in-place reuse
  // ONNX: new graph input shapes (--input-shape NAME=8x3x224x224) and the
  // leading dim of every graph input (sweep --batch); shapes re-inferred.
  std::map<std::string, std::vector<std::int64_t>> input_shapes;
  std::optional<std::int64_t> batch;
  // --regions [--regions-per N]: wrap a flat program (an ONNX model) into
  // execution regions of N ops each, 0 for one region
  // (regions/region_partition.h); nullopt: as it is.
  std::optional<std::int64_t> regions_per;
  // TFLite: keep the model's OfflineMemoryAllocation offsets (--offline-plan).
  bool offline_plan = false;
  // ONNX with alias: also load the model without aliasing into
  // LoadedInput::unaliased (reading and shape inference run once for both).
  bool keep_unaliased = false;
  // --reorder: run the ops in a new order that lowers the transient
  // max-live (schedule/reorder.h), before any --regions wrapping.
  bool reorder = false;
  // With reorder, when the order changes: also keep the input in its own
  // order (LoadedInput::input_order), for fast memory to choose between the
  // two by estimated time (driver/plan_job.cc).
  bool keep_input_order = false;
};

// What a TFLite input keeps beyond its program (io/tflite/).
struct TfliteInputInfo {
  std::vector<ValueId> tensor_values;          // per tensor of subgraph 0
  std::vector<std::int32_t> entry_operator;    // per op (TfliteImport::entry_operator)
  std::vector<std::int32_t> offline_offsets;   // the model's offline plan, empty if none
  std::int64_t total_tensors = 0;              // over all subgraphs
  // The arena head as TFLite Micro sees it (io/tflite/micro_lifetimes.h).
  std::vector<TfliteHeadTensor> head;
};

struct LoadedInput {
  InputFormat format = InputFormat::kTextIr;
  std::optional<Program> program;            // absent for CSV input
  std::optional<ProgramAnalysis> analysis;   // absent for CSV input
  BufferSet buffers;
  std::optional<TfliteInputInfo> tflite;     // TFLite input only
  // With LoadOptions::keep_unaliased, the ONNX model loaded without aliasing.
  std::shared_ptr<const LoadedInput> unaliased;
  // With --reorder: what the reordering found (its `program` moved into
  // `program` above, which then runs in the new order).
  std::optional<ReorderResult> reorder;
  // With LoadOptions::keep_input_order and a changed order: the input as
  // loaded without reordering.
  std::shared_ptr<const LoadedInput> input_order;
};

// What the summaries (report/summary.h) describe of `input`; refers into it.
SummaryInput SummaryInputOf(const LoadedInput& input);

// "a lifetime CSV", "an ONNX model" or "memplan text IR", for messages.
const char* InputFormatName(InputFormat format);

// Format implied by `path`'s extension (case-insensitive), else by its first
// bytes (a TFLite file identifier; HLO text starting with `HloModule`).
InputFormat DetectFormat(const std::string& path);

// Reads and analyses `path`, then checks the input limits (CheckInputLimits
// with alignment 1). Errors: InvalidArgument (exit code 2)
//  * `path:line:col: error: ...` for unreadable or malformed input; when a
//    file whose extension is not .mpir fails to parse as text IR, the message
//    ends with a hint that the format was chosen from the extension;
//  * `path: error: --no-alias ...` when given for an input other than ONNX,
//    `--input-shape ...` / `--batch ...` for an input other than ONNX,
//    `--dim ...` for a lifetime CSV (they would have no effect);
//  * for text IR, those of BindDims (ir/dims.h): a --dim naming no dim of
//    the program, a binding outside [1, bound], a dim with neither bound nor
//    binding, a size past the limits at the evaluation point;
//  * `path: error: --reorder applies only to programs ...` for a lifetime CSV;
//  * those of CheckInputLimits.
// With --reorder the reordered program is checked by the independent
// verifier (verify/schedule_checks.h); a failure is Internal (a bug).
absl::StatusOr<LoadedInput> LoadInput(const std::string& path, const LoadOptions& options);

// Analyses a program built in code (already valid: ValidateProgram), as
// LoadInput does a text IR file's, then checks the input limits. Errors:
// those of AnalyzeProgram and CheckInputLimits, located at program.source.
absl::StatusOr<LoadedInput> LoadProgram(Program program, const LoadOptions& options);

// Checks `input` against the limits of ir/units.h (kMaxTotalBytes,
// kMaxAlignment, kMaxTimeSteps) when every offset must also be a multiple of `alignment`:
// each buffer counts as its size plus alignment - 1 bytes of padding, the
// alignment being the larger of the buffer's own and `alignment`. Errors: InvalidArgument
// `path[:line:col]: error: ...` naming the alignment, the buffer (located at
// its first value for program inputs, at its op for an op's scratch buffer) too large alone, with its padding, the
// total or the number of time steps that is too large, a fixed offset
// (Buffer::fixed_offset) that is not a multiple of `alignment`, or a highest
// fixed end plus that total past kMaxTotalBytes (CSV rows past the
// time or size limit, padding included, are rejected by the CSV reader,
// located at the field).
absl::Status CheckInputLimits(const LoadedInput& input, Bytes alignment);

// The first computation other than the entry whose op order --reorder
// changed (a loop body, a branch, a callee), or kNoId: a model file holds
// one order per subgraph, so the --write-onnx/--write-tflite writers refuse it.
ComputationId ReorderedCallee(const LoadedInput& input);

}  // namespace memplan
