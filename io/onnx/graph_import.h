// The importer's internals (io/onnx/importer.h is the interface): one ONNX
// graph, and recursively its subgraphs, into memplan computations.
// onnx_importer.cc imports plain nodes; onnx_control_flow.cc lowers If, Loop
// and Scan to conditional/while (the rules are in docs/formats.md, "ONNX
// control flow").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "io/onnx/fold.h"
#include "io/onnx/shapes.h"
#include "ir/program.h"
#include "ir/program_builder.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// An ONNX tensor as imported: its memplan value and what is known about it.
struct OnnxTensor {
  ValueId value = kNoId;
  bool constant = false;  // computed from constants only (constant lifetime)
  OnnxTensorType type;
  std::optional<KnownTensor> known;  // its value, when known at import time (io/onnx/fold.h)
};

// The nodes of one graph that fold away (FoldNode evaluates them from
// constants and static dims): they take no step of the schedule.
struct OnnxFolding {
  // Node index -> the value of its one output.
  std::unordered_map<int, KnownTensor> values;
  // Folded outputs read by a node that stays, by a subgraph (capture) or as
  // a graph output: each becomes a constant (an entry parameter of constant
  // lifetime in the main graph, a `constant` op in a subgraph). The others
  // get no value at all.
  std::unordered_set<std::string> needed;
};

// One loop-carried value of a while lowered from Loop or Scan.
struct OnnxLoopSlot {
  std::string key;         // its ONNX name inside the body; empty when the body has none
  std::string name;        // base of its value names: "<prefix><name>", "...init", "...final"
  ValueId init = kNoId;    // the while operand
  OnnxTensor tensor;       // its type
  std::string result_key;  // the ONNX name of the while result in the outer graph, or empty
};

// One ONNX graph being imported into one memplan computation.
struct OnnxScope {
  const onnx::GraphProto* graph = nullptr;
  ComputationId computation = kNoId;
  // Prepended to the graph's tensor names: "" for the main graph,
  // "loop1/" inside the body of node 'loop1', "loop1/if2/then/" deeper.
  std::string prefix;
  // Tensors visible here by ONNX name: the graph's own and its captures.
  std::unordered_map<std::string, OnnxTensor> tensors;
  // Inferred types of the graph's tensors (inputs, value_info, outputs).
  std::unordered_map<std::string, const onnx::TypeProto*> types;
  // Index of the last node reading each tensor (OnnxLastReads).
  std::unordered_map<std::string, int> last_reads;
};

class OnnxGraphImporter {
 public:
  OnnxGraphImporter(const onnx::ModelProto& model, std::string_view path);

  // The whole program; `path` names the model in errors.
  absl::StatusOr<Program> Build() &&;

 private:
  absl::Status Error(std::string_view message) const;

  // A scope for `graph` importing into a new computation called `name`.
  OnnxScope NewScope(const onnx::GraphProto& graph, std::string name, std::string prefix);
  // A value name not used yet: `base`, else `base.1`, `base.2`, ...
  std::string UniqueValueName(const std::string& base);
  // The value name of ONNX tensor `tensor` defined in `scope`: unchanged in
  // the main graph (its names are reserved up front), scoped and unique in a
  // subgraph.
  std::string TensorValueName(const OnnxScope& scope, const std::string& tensor);
  std::string UniqueComputationName(const std::string& base);

  // A parameter of `scope`'s computation named UniqueValueName(value_name),
  // of `tensor`'s type, registered under the ONNX name `key` (unless empty).
  ValueId AddParam(OnnxScope& scope, const std::string& key, const std::string& value_name,
                   const OnnxTensor& tensor);
  // A subgraph's initializers become `constant` ops of its computation.
  absl::Status AddSubgraphInitializers(OnnxScope& scope);
  // Imports the nodes of `scope`'s graph in order.
  absl::Status AddNodes(OnnxScope& scope);
  // io/onnx/folded_nodes.cc: which nodes of `scope`'s graph fold away, in
  // graph order, from the known values of its initializers and captures and
  // the static dims shape inference gave (O(nodes), each fold bounded by
  // kMaxFoldElements).
  OnnxFolding PlanFolding(const OnnxScope& scope) const;
  // Registers folded node `node`'s output with `value`, as a constant when
  // `folding` says it is needed.
  absl::Status AddFoldedNode(OnnxScope& scope, const onnx::NodeProto& node,
                             const KnownTensor& value, const OnnxFolding& folding);
  absl::Status AddPlainNode(OnnxScope& scope, const onnx::NodeProto& node,
                            const std::string& label);
  // The sized type of `tensor` of `scope` from shape inference.
  absl::StatusOr<OnnxTensorType> InferredType(const OnnxScope& scope, const std::string& tensor,
                                              const std::string& label);
  // Appends an op with one result (named UniqueValueName(name)) of `type`.
  ValueId AddOp1(ComputationId computation, const std::string& opcode,
                 std::vector<ValueId> operands, const std::string& name,
                 const OnnxTensorType& type);

  // Attribute `name` = the node's name, when it has one.
  void AddNameAttribute(OpId op, const onnx::NodeProto& node);

  // onnx_control_flow.cc
  // @<prefix>cond: one parameter per slot, returning compare() of the
  // parameters of the slots `compared` (counter, condition, M).
  ComputationId AddLoopCond(const std::string& prefix, const std::vector<OnnxLoopSlot>& slots,
                            const std::vector<size_t>& compared);
  // In `body`: the accumulator of a scan output with row `element` written at
  // `counter`, in place (tied to `accumulator`).
  ValueId AddAccumulatorUpdate(OnnxScope& body, const OnnxLoopSlot& slot, ValueId accumulator,
                               ValueId counter, const std::string& element);
  // The while op over `slots`; registers the results that have a result_key.
  void AddWhileOp(OnnxScope& scope, const onnx::NodeProto& node, const std::string& prefix,
                  const std::vector<OnnxLoopSlot>& slots, ComputationId cond, ComputationId body,
                  std::optional<std::int64_t> trip_count);
  absl::Status AddIf(OnnxScope& scope, const onnx::NodeProto& node, int index,
                     const std::string& label);
  absl::Status AddLoop(OnnxScope& scope, const onnx::NodeProto& node, int index,
                       const std::string& label);
  absl::Status AddScan(OnnxScope& scope, const onnx::NodeProto& node, int index,
                       const std::string& label);
  // The subgraph's results: each output's value, or a copy of it when the
  // value is not fresh storage of this computation (a parameter other than
  // `pass_through[i]`, a constant, or an output listed twice).
  // `outputs` are ONNX names in `scope`.
  std::vector<ValueId> SubgraphResults(OnnxScope& scope, const std::vector<std::string>& outputs,
                                       const std::vector<ValueId>& pass_through);
  // The initial value of a loop-carried tensor: `tensor` itself when node
  // `index` is its last reader (it may be overwritten), else a copy.
  ValueId LoopInit(OnnxScope& scope, const onnx::NodeProto& node, int index,
                   const std::string& tensor, const std::string& name);

  const onnx::GraphProto& graph_;
  const int opset_;
  std::string_view path_;
  ProgramBuilder builder_;
  std::unordered_set<std::string> value_names_;
  std::unordered_set<std::string> computation_names_;
};

// Shared helpers.
std::string OnnxOpcode(const onnx::NodeProto& node);
// "loop1" for a named node, else "<OpType>_<index>" ("Loop_3").
std::string OnnxScopeName(const onnx::NodeProto& node, int index);

}  // namespace memplan
