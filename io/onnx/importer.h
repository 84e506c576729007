// ONNX model -> memplan Program, planned from dims and dtypes alone (weights,
// inline or external, are never read).
//
// The program has one entry computation named after the graph ("main" when
// the graph is unnamed), scheduled in graph node order:
//   * graph inputs that are not initializers -> parameters (external);
//   * initializers -> parameters of the entry of the constant lifetime
//     (uploaded once, before any run: they take no step);
//   * node -> op `onnx.<OpType>` (`onnx.<domain>.<OpType>` for custom
//     domains, e.g. `onnx.com.microsoft.Gelu`) with attribute `name` = the
//     node's name when it has one; omitted optional inputs ("") are skipped;
//     each named output -> a result of dtype x shape bytes (ONNX shape
//     inference, see io/onnx/shapes.h). An output nothing reads whose shape
//     cannot be inferred (e.g. Dropout's mask in opset 7-9) is left out: no
//     runtime needs to materialize it;
//   * nodes that fold (io/onnx/fold.h: shape computations on small tensors,
//     evaluated from constants and static dims) take no step: a folded output
//     that a remaining node, subgraph or graph output reads becomes an entry
//     parameter of the constant lifetime (a `constant` op in a subgraph), the
//     others no value at all (io/onnx/folded_nodes.cc);
//   * other values computed only from constants (e.g. a ConstantOfShape too
//     large to fold, arithmetic on weights) take the constant lifetime;
//     random ops never do;
//   * graph outputs -> the entry's results (external unless a parameter or an
//     initializer is returned directly);
//   * If -> conditional, Loop and Scan -> while, their subgraphs -> funcs
//     named after the node ("@loop1/body", "@loop1/cond", "@if1/then"),
//     their tensors -> values scoped by the node ("loop1/h"); tensors a
//     subgraph reads from enclosing graphs become extra operands (see
//     io/onnx/control_flow.cc and docs/formats.md "ONNX control flow");
//   * Op::cost from io/onnx/cost.h;
//   * ops computing constants only (e.g. Transpose of a weight) leave the
//     schedule: their results become constant parameters of the entry, or
//     disappear into their input when they are views (io/onnx/hoist_constants.h);
//   * a Slice whose starts/ends/axes/steps are known and step by 1 gets the
//     attribute `starts` = the window's first index per dim of its input
//     (negative indices resolved, clamped; io/onnx/slice_window.h);
//   * with OnnxImportOptions::alias, views (also outer-axis Concat, Split
//     and, when it pays, Slice) and in-place results (io/onnx/alias.h).
// Main-graph tensor names become value names unchanged (ONNX names are unique
// in a graph; a second definition is an error); a scoped subgraph name that
// clashes with another value gets a ".1", ".2", ... suffix.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "io/onnx/input_shapes.h"
#include "ir/program.h"

namespace memplan {

struct OnnxImportOptions {
  // Values for symbolic dims (dim_param), e.g. {"batch", 8}; naming a dim the
  // model does not have is an error (InferOnnxShapes).
  std::map<std::string, std::int64_t> dims;
  // New static shapes for graph inputs (--input-shape, sweep --batch);
  // every other shape is inferred again (SetOnnxInputShapes).
  OnnxInputShapes input_shapes;
  // Reshape-like outputs become views and elementwise outputs may be tied
  // (written in place) to dying inputs.
  bool alias = true;
  // Ops computing only constants leave the schedule (io/onnx/hoist_constants.h).
  // Off only in tests that compare with the graph's raw node counts.
  bool hoist_constants = true;
};

// Imports the ONNX model at `path` and validates the result (ValidateProgram).
// Errors: InvalidArgument `path: error: ...` naming the node or tensor — see
// SetOnnxInputShapes, ReadOnnxModel (unreadable, corrupt, truncated or non-ONNX files, opsets,
// unknown ops, control flow below opset 11), InferOnnxShapes and SizeOnnxTensor (dims
// left symbolic, in one error naming every input dim and data-dependent op
// behind them with a `--dim NAME=VALUE` hint each, unknown shapes, unsupported
// dtypes such as STRING), and graph structure (a tensor read before it is
// defined, defined twice, or a graph output nothing defines).
absl::StatusOr<Program> ImportOnnx(const std::string& path, const OnnxImportOptions& options);

// The programs of one import: reading and shape inference (most of the
// import's time) run once for both.
struct OnnxPrograms {
  Program program;                  // with `options`
  std::optional<Program> unaliased;  // the same without aliasing, when asked
};

// ImportOnnx, and with `also_unaliased` (and options.alias) the program
// OnnxImportOptions::alias = false gives too. Errors: those of ImportOnnx.
absl::StatusOr<OnnxPrograms> ImportOnnxPrograms(const std::string& path,
                                                const OnnxImportOptions& options,
                                                bool also_unaliased);

}  // namespace memplan
