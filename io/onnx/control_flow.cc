// ONNX If, Loop and Scan -> memplan conditional and while (OnnxGraphImporter).
//
// A memplan callee sees only the operands of its calling op, so every tensor a
// subgraph reads from an enclosing graph (OnnxCaptures) becomes an extra
// operand: a branch parameter of the conditional, or a loop-carried value the
// body returns unchanged (pass-through) for a while. Nested subgraphs capture
// through each level. Loop and Scan bodies also carry an iteration counter and
// full-size scan-output accumulators that the body writes in place
// (dynamic-update-slice tied to the accumulator), so their memory is the
// memory a runtime needs. docs/formats.md ("ONNX control flow") has the rules.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "io/onnx/attr.h"
#include "io/onnx/graph_import.h"
#include "io/onnx/model.h"
#include "io/onnx/subgraph.h"
#include "ir/dtype.h"
#include "ir/units.h"

namespace memplan {
namespace {

// Opcodes whose ONNX outputs the alias pass makes views of their input
// (io/onnx/alias.h): such a value may share storage that lives on.
constexpr std::string_view kViewOpcodes[] = {"onnx.Flatten", "onnx.Identity", "onnx.Reshape",
                                             "onnx.Squeeze", "onnx.Unsqueeze"};

OnnxTensorType Scalar(const char* dtype, Bytes bytes) {
  OnnxTensorType t;
  t.type.dtype = dtype;
  t.bytes = bytes;
  return t;
}

const OnnxTensorType& Counter() {
  static const OnnxTensorType type = Scalar("i64", 8);
  return type;
}
const OnnxTensorType& Predicate() {
  static const OnnxTensorType type = Scalar("bool", 1);
  return type;
}

// `axis` of a rank-`rank` tensor (negative counts from the end), or -1.
std::int64_t NormalizedAxis(std::int64_t axis, std::int64_t rank) {
  if (axis < 0) axis += rank;
  return axis < 0 || axis >= rank ? -1 : axis;
}

}  // namespace

ValueId OnnxGraphImporter::LoopInit(OnnxScope& scope, const onnx::NodeProto& node, int index,
                                    const std::string& tensor, const std::string& name) {
  const OnnxTensor& t = scope.tensors.at(tensor);
  const Value& value = builder_.program().values[t.value];
  auto last = scope.last_reads.find(tensor);
  const bool dies_here =
      last != scope.last_reads.end() && last->second == index && OnnxReadCount(node, tensor) == 1;
  const bool own_storage =
      value.defining_op != kNoId && !t.constant && !value.lifetime.has_value() &&
      std::find(std::begin(kViewOpcodes), std::end(kViewOpcodes),
                builder_.program().ops[value.defining_op].opcode) == std::end(kViewOpcodes);
  if (dies_here && own_storage) return t.value;  // the loop may overwrite it
  const OnnxTensorType type = t.type;
  return AddOp1(scope.computation, "copy", {t.value}, name, type);
}

std::vector<ValueId> OnnxGraphImporter::SubgraphResults(OnnxScope& scope,
                                                        const std::vector<std::string>& outputs,
                                                        const std::vector<ValueId>& pass_through) {
  std::vector<ValueId> results;
  std::unordered_set<ValueId> returned;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OnnxTensor& t = scope.tensors.at(outputs[i]);
    const Value& value = builder_.program().values[t.value];
    const bool allowed = i < pass_through.size() && pass_through[i] == t.value;
    const bool fresh = value.defining_op != kNoId && !t.constant &&
                       value.lifetime != Lifetime::kConstant && value.alias == AliasKind::kNone;
    if ((allowed || fresh) && returned.insert(t.value).second) {
      results.push_back(t.value);
      continue;
    }
    // The result shares storage with the op's result: give it its own.
    const OnnxTensorType type = t.type;
    results.push_back(
        AddOp1(scope.computation, "copy", {t.value}, scope.prefix + outputs[i] + ".out", type));
  }
  return results;
}

absl::Status OnnxGraphImporter::AddIf(OnnxScope& scope, const onnx::NodeProto& node, int index,
                                      const std::string& label) {
  const std::string name = OnnxScopeName(node, index);
  const onnx::GraphProto* branches[2] = {OnnxSubgraph(node, "then_branch"),
                                         OnnxSubgraph(node, "else_branch")};
  const char* branch_names[2] = {"then", "else"};
  std::vector<std::string> captures;
  std::unordered_set<std::string> seen;
  for (const onnx::GraphProto* branch : branches) {
    if (branch == nullptr) return Error(fmt::format("{}: missing a branch graph", label));
    for (std::string& c : OnnxCaptures(*branch)) {
      if (seen.insert(c).second) captures.push_back(std::move(c));
    }
  }
  if (node.input_size() < 1 || node.input(0).empty())
    return Error(fmt::format("{}: missing its condition input", label));
  std::vector<ValueId> operands = {scope.tensors.at(node.input(0)).value};
  for (const std::string& c : captures) operands.push_back(scope.tensors.at(c).value);

  std::vector<ComputationId> callees;
  std::vector<std::vector<ValueId>> results(2);
  std::vector<OnnxTensorType> types;
  for (int b = 0; b < 2; ++b) {
    const onnx::GraphProto& graph = *branches[b];
    if (graph.output_size() != node.output_size()) {
      return Error(fmt::format("{}: the {} branch returns {} tensors but the node has {} outputs",
                               label, branch_names[b], graph.output_size(), node.output_size()));
    }
    const std::string prefix = fmt::format("{}{}/{}/", scope.prefix, name, branch_names[b]);
    OnnxScope inner = NewScope(graph, prefix.substr(0, prefix.size() - 1), prefix);
    for (const std::string& c : captures) AddParam(inner, c, prefix + c, scope.tensors.at(c));
    if (absl::Status s = AddSubgraphInitializers(inner); !s.ok()) return s;
    if (absl::Status s = AddNodes(inner); !s.ok()) return s;
    std::vector<std::string> outputs;
    for (const auto& output : graph.output()) outputs.push_back(output.name());
    results[b] = SubgraphResults(inner, outputs, {});
    builder_.SetReturn(inner.computation, results[b]);
    callees.push_back(inner.computation);
    if (b == 0) {
      for (const std::string& output : outputs) types.push_back(inner.tensors.at(output).type);
    }
  }
  for (int j = 0; j < node.output_size(); ++j) {
    const Bytes then_bytes = builder_.program().values[results[0][j]].size;
    const Bytes else_bytes = builder_.program().values[results[1][j]].size;
    if (then_bytes != else_bytes) {
      return Error(fmt::format(
          "{}: output {} is {} bytes in the then branch ('{}') but {} bytes in the else branch "
          "('{}'); branches whose results differ in size are not supported",
          label, j, then_bytes, branches[0]->output(j).name(), else_bytes,
          branches[1]->output(j).name()));
    }
  }
  const OpId op = builder_.AddOp(scope.computation, "conditional", std::move(operands));
  builder_.op(op).callees = std::move(callees);
  AddNameAttribute(op, node);
  for (int j = 0; j < node.output_size(); ++j) {
    const std::string& output = node.output(j);
    const std::string value_name =
        output.empty() ? UniqueValueName(fmt::format("{}{}/out{}", scope.prefix, name, j))
                       : TensorValueName(scope, output);
    const ValueId v = builder_.AddResult(op, value_name, types[j].bytes, types[j].type);
    if (!output.empty()) {
      scope.tensors.insert_or_assign(output, OnnxTensor{v, false, types[j], std::nullopt});
    }
  }
  return absl::OkStatus();
}

ComputationId OnnxGraphImporter::AddLoopCond(const std::string& prefix,
                                             const std::vector<OnnxLoopSlot>& slots,
                                             const std::vector<size_t>& compared) {
  const ComputationId cond = builder_.AddComputation(UniqueComputationName(prefix + "cond"));
  std::vector<ValueId> params;
  for (const OnnxLoopSlot& slot : slots) {
    params.push_back(builder_.AddParam(cond, UniqueValueName(prefix + "cond/" + slot.name),
                                       slot.tensor.type.bytes, slot.tensor.type.type));
  }
  std::vector<ValueId> operands;
  for (size_t k : compared) operands.push_back(params[k]);
  builder_.SetReturn(
      cond, {AddOp1(cond, "compare", std::move(operands), prefix + "cond/continue", Predicate())});
  return cond;
}

ValueId OnnxGraphImporter::AddAccumulatorUpdate(OnnxScope& body, const OnnxLoopSlot& slot,
                                                ValueId accumulator, ValueId counter,
                                                const std::string& element) {
  const OnnxTensor& row = body.tensors.at(element);
  const ValueId next =
      AddOp1(body.computation, "dynamic-update-slice", {accumulator, row.value, counter},
             body.prefix + slot.name + ".next", slot.tensor.type);
  builder_.value(next).alias = AliasKind::kTied;
  builder_.value(next).alias_of = accumulator;
  // Reads the row and the counter and writes one row, not the whole accumulator.
  builder_.op(builder_.value(next).defining_op).cost.bytes_accessed =
      2 * row.type.bytes + Counter().bytes;
  return next;
}

void OnnxGraphImporter::AddWhileOp(OnnxScope& scope, const onnx::NodeProto& node,
                                   const std::string& prefix,
                                   const std::vector<OnnxLoopSlot>& slots, ComputationId cond,
                                   ComputationId body, std::optional<std::int64_t> trip_count) {
  std::vector<ValueId> inits;
  for (const OnnxLoopSlot& slot : slots) inits.push_back(slot.init);
  const OpId op = builder_.AddOp(scope.computation, "while", std::move(inits));
  builder_.op(op).callees = {cond, body};
  builder_.op(op).trip_count = trip_count;
  AddNameAttribute(op, node);
  for (const OnnxLoopSlot& slot : slots) {
    const std::string value_name = slot.result_key.empty()
                                       ? UniqueValueName(prefix + slot.name + ".final")
                                       : TensorValueName(scope, slot.result_key);
    const ValueId v =
        builder_.AddResult(op, value_name, slot.tensor.type.bytes, slot.tensor.type.type);
    if (!slot.result_key.empty()) {
      scope.tensors.insert_or_assign(slot.result_key,
                                     OnnxTensor{v, false, slot.tensor.type, std::nullopt});
    }
  }
}

absl::Status OnnxGraphImporter::AddLoop(OnnxScope& scope, const onnx::NodeProto& node, int index,
                                        const std::string& label) {
  const onnx::GraphProto* body_graph = OnnxSubgraph(node, "body");
  if (body_graph == nullptr) return Error(fmt::format("{}: missing its body graph", label));
  const onnx::GraphProto& body = *body_graph;
  const int carried = std::max(0, node.input_size() - 2);
  if (body.input_size() != carried + 2 || body.output_size() < carried + 1) {
    return Error(fmt::format(
        "{}: its body takes {} inputs and returns {} outputs; a Loop with {} "
        "loop-carried values needs {} inputs (iteration number, condition, "
        "values) and at least {} outputs",
        label, body.input_size(), body.output_size(), carried, carried + 2, carried + 1));
  }
  const int scans = body.output_size() - 1 - carried;
  const std::string name = OnnxScopeName(node, index);
  const std::string prefix = scope.prefix + name + "/";
  auto input = [&](int i) { return i < node.input_size() ? node.input(i) : std::string(); };
  auto output = [&](int i) { return i < node.output_size() ? node.output(i) : std::string(); };

  // A constant trip count M sets trip_count; scan outputs need one.
  std::optional<std::int64_t> trip_count;
  if (const std::string m = input(0); !m.empty()) {
    const OnnxTensor& t = scope.tensors.at(m);
    if (t.known && t.known->values.size() == 1 && t.known->values[0] >= 0)
      trip_count = t.known->values[0];
  }
  if (scans > 0 && !trip_count) {
    return Error(fmt::format(
        "{}: scan output '{}' grows by one element per iteration, but the trip count M {}; the "
        "length of a scan output is then only known at run time (memplan plans static sizes: "
        "give M as an initializer or a constant, or return the values as loop-carried tensors)",
        label, output(carried).empty() ? body.output(1 + carried).name() : output(carried),
        input(0).empty() ? "is not given" : fmt::format("'{}' is not a constant", input(0))));
  }

  OnnxScope inner = NewScope(body, prefix + "body", prefix);
  const std::vector<std::string> captures = OnnxCaptures(body);
  std::vector<OnnxLoopSlot> slots;
  // Iteration counter and condition: small loop-carried values of their own.
  const std::string iter = body.input(0).name();
  slots.push_back({iter, iter,
                   AddOp1(scope.computation, "iota", {}, prefix + iter + ".init", Counter()),
                   OnnxTensor{kNoId, false, Counter(), std::nullopt}, ""});
  const std::string cond = body.input(1).name();
  const ValueId cond_init =
      input(1).empty()
          ? AddOp1(scope.computation, "broadcast", {}, prefix + cond + ".init", Predicate())
          : LoopInit(scope, node, index, input(1), prefix + cond + ".init");
  slots.push_back(
      {cond, cond, cond_init,
       OnnxTensor{kNoId, false, input(1).empty() ? Predicate() : scope.tensors.at(input(1)).type,
                  std::nullopt},
       ""});
  for (int k = 0; k < carried; ++k) {
    const std::string key = body.input(2 + k).name();
    if (input(2 + k).empty())
      return Error(fmt::format("{}: loop-carried input {} is empty", label, 2 + k));
    const OnnxTensor& init = scope.tensors.at(input(2 + k));
    slots.push_back({key, key, LoopInit(scope, node, index, input(2 + k), prefix + key + ".init"),
                     OnnxTensor{kNoId, false, init.type, std::nullopt}, output(k)});
  }
  // Scan outputs: a full-size accumulator, row i written by iteration i.
  std::vector<OnnxTensorType> elements;
  for (int j = 0; j < scans; ++j) {
    const std::string& element = body.output(1 + carried + j).name();
    absl::StatusOr<OnnxTensorType> type = InferredType(inner, element, label);
    if (!type.ok()) return type.status();
    OnnxTensorType stacked;
    stacked.type.dtype = type->type.dtype;
    stacked.type.dims = type->type.dims;
    stacked.type.dims.insert(stacked.type.dims.begin(), *trip_count);
    absl::StatusOr<Bytes> bytes = TensorBytes(stacked.type);
    if (!bytes.ok() || *bytes > kMaxTotalBytes) {
      return Error(fmt::format("{}: scan output of '{}' over {} iterations exceeds 2^62 bytes",
                               label, element, *trip_count));
    }
    stacked.bytes = *bytes;
    elements.push_back(*std::move(type));
    const std::string base = output(carried + j).empty() ? element + ".scan" : output(carried + j);
    slots.push_back({"", base,
                     AddOp1(scope.computation, "broadcast", {}, prefix + base + ".init", stacked),
                     OnnxTensor{kNoId, false, stacked, std::nullopt}, output(carried + j)});
  }
  const size_t first_pass_through = slots.size();
  std::optional<size_t> m_slot;
  if (const std::string m = input(0);
      !m.empty() && std::find(captures.begin(), captures.end(), m) == captures.end()) {
    m_slot = slots.size();
    slots.push_back({"", m, scope.tensors.at(m).value, scope.tensors.at(m), ""});
  }
  for (const std::string& c : captures) {
    if (c == input(0)) m_slot = slots.size();
    slots.push_back({c, c, scope.tensors.at(c).value, scope.tensors.at(c), ""});
  }

  // @<prefix>cond: continue while iter < M (when given) and the condition holds.
  std::vector<size_t> compared = {0, 1};
  if (m_slot) compared.push_back(*m_slot);
  const ComputationId cond_comp = AddLoopCond(prefix, slots, compared);

  // @<prefix>body: the ONNX body between its parameters and results.
  std::vector<ValueId> params;
  for (const OnnxLoopSlot& slot : slots) {
    params.push_back(AddParam(inner, slot.key, prefix + slot.name, slot.tensor));
  }
  if (absl::Status s = AddSubgraphInitializers(inner); !s.ok()) return s;
  if (absl::Status s = AddNodes(inner); !s.ok()) return s;
  std::vector<ValueId> results = {
      AddOp1(inner.computation, "add", {params[0]}, prefix + iter + ".next", Counter())};
  std::vector<std::string> outputs;
  std::vector<ValueId> pass_through;
  for (int k = 0; k <= carried; ++k) {
    outputs.push_back(body.output(k).name());
    pass_through.push_back(params[1 + k]);
  }
  for (ValueId v : SubgraphResults(inner, outputs, pass_through)) results.push_back(v);
  for (size_t k = 1; k < results.size(); ++k) {
    const Bytes before = slots[k].tensor.type.bytes;
    const Bytes after = builder_.program().values[results[k]].size;
    if (before != after) {
      return Error(
          fmt::format("{}: loop-carried '{}' is {} bytes before the loop but the body "
                      "returns {} bytes ('{}')",
                      label, slots[k].name, before, after, outputs[k - 1]));
    }
  }
  for (int j = 0; j < scans; ++j) {
    const size_t slot = 2 + carried + j;
    results.push_back(AddAccumulatorUpdate(inner, slots[slot], params[slot], params[0],
                                           body.output(1 + carried + j).name()));
  }
  for (size_t k = first_pass_through; k < slots.size(); ++k) results.push_back(params[k]);
  builder_.SetReturn(inner.computation, results);

  AddWhileOp(scope, node, prefix, slots, cond_comp, inner.computation, trip_count);
  return absl::OkStatus();
}

absl::Status OnnxGraphImporter::AddScan(OnnxScope& scope, const onnx::NodeProto& node, int index,
                                        const std::string& label) {
  const onnx::GraphProto* body_graph = OnnxSubgraph(node, "body");
  if (body_graph == nullptr) return Error(fmt::format("{}: missing its body graph", label));
  const onnx::GraphProto& body = *body_graph;
  const int scan_inputs = static_cast<int>(IntAttribute(node, "num_scan_inputs").value_or(0));
  const int states = node.input_size() - scan_inputs;
  const int scans = body.output_size() - states;
  if (scan_inputs < 1 || states < 0 || scans < 0 || body.input_size() != node.input_size()) {
    return Error(
        fmt::format("{}: its body takes {} inputs and returns {} outputs, which does not "
                    "fit {} inputs with num_scan_inputs = {}",
                    label, body.input_size(), body.output_size(), node.input_size(), scan_inputs));
  }
  for (int k = 0; k < node.input_size(); ++k) {
    if (node.input(k).empty()) return Error(fmt::format("{}: input {} is empty", label, k));
  }
  const std::string name = OnnxScopeName(node, index);
  const std::string prefix = scope.prefix + name + "/";
  auto output = [&](int i) { return i < node.output_size() ? node.output(i) : std::string(); };
  const std::vector<std::int64_t> input_axes =
      IntsAttribute(node, "scan_input_axes").value_or(std::vector<std::int64_t>(scan_inputs, 0));
  const std::vector<std::int64_t> output_axes =
      IntsAttribute(node, "scan_output_axes").value_or(std::vector<std::int64_t>(scans, 0));
  if (static_cast<int>(input_axes.size()) != scan_inputs ||
      static_cast<int>(output_axes.size()) != scans) {
    return Error(
        fmt::format("{}: scan_input_axes / scan_output_axes need one axis per scan input "
                    "/ output",
                    label));
  }

  // The trip count is the length of the scan inputs along their axes.
  std::optional<std::int64_t> trip_count;
  std::vector<OnnxTensorType> slices;
  for (int j = 0; j < scan_inputs; ++j) {
    const std::string& tensor = node.input(states + j);
    const OnnxTensorType& full = scope.tensors.at(tensor).type;
    const std::int64_t rank = static_cast<std::int64_t>(full.type.dims.size());
    const std::int64_t axis = NormalizedAxis(input_axes[j], rank);
    if (axis < 0) {
      return Error(fmt::format("{}: scan input '{}' of rank {} has no axis {}", label, tensor, rank,
                               input_axes[j]));
    }
    const std::int64_t length = full.type.dims[axis];
    if (trip_count && *trip_count != length) {
      return Error(
          fmt::format("{}: scan input '{}' has {} elements along axis {}, the first scan "
                      "input {}",
                      label, tensor, length, axis, *trip_count));
    }
    trip_count = length;
    OnnxTensorType slice;
    slice.type.dtype = full.type.dtype;
    slice.type.dims = full.type.dims;
    slice.type.dims.erase(slice.type.dims.begin() + axis);
    slice.bytes = length == 0 ? 0 : full.bytes / length;
    slices.push_back(std::move(slice));
  }

  OnnxScope inner = NewScope(body, prefix + "body", prefix);
  const std::vector<std::string> captures = OnnxCaptures(body);
  std::vector<OnnxLoopSlot> slots;
  slots.push_back({"", "iter",
                   AddOp1(scope.computation, "iota", {}, prefix + "iter.init", Counter()),
                   OnnxTensor{kNoId, false, Counter(), std::nullopt}, ""});
  for (int k = 0; k < states; ++k) {
    const std::string key = body.input(k).name();
    const OnnxTensor& init = scope.tensors.at(node.input(k));
    slots.push_back({key, key, LoopInit(scope, node, index, node.input(k), prefix + key + ".init"),
                     OnnxTensor{kNoId, false, init.type, std::nullopt}, output(k)});
  }
  for (int j = 0; j < scans; ++j) {
    const std::string& element = body.output(states + j).name();
    absl::StatusOr<OnnxTensorType> type = InferredType(inner, element, label);
    if (!type.ok()) return type.status();
    OnnxTensorType stacked;
    stacked.type.dtype = type->type.dtype;
    stacked.type.dims = type->type.dims;
    const std::int64_t axis =
        NormalizedAxis(output_axes[j], static_cast<std::int64_t>(stacked.type.dims.size()) + 1);
    if (axis < 0) {
      return Error(fmt::format("{}: scan output {} has no axis {}", label, j, output_axes[j]));
    }
    stacked.type.dims.insert(stacked.type.dims.begin() + axis, *trip_count);
    absl::StatusOr<Bytes> bytes = TensorBytes(stacked.type);
    if (!bytes.ok() || *bytes > kMaxTotalBytes) {
      return Error(fmt::format("{}: scan output of '{}' over {} iterations exceeds 2^62 bytes",
                               label, element, *trip_count));
    }
    stacked.bytes = *bytes;
    const std::string base = output(states + j).empty() ? element + ".scan" : output(states + j);
    slots.push_back({"", base,
                     AddOp1(scope.computation, "broadcast", {}, prefix + base + ".init", stacked),
                     OnnxTensor{kNoId, false, stacked, std::nullopt}, output(states + j)});
  }
  const size_t first_pass_through = slots.size();
  for (int j = 0; j < scan_inputs; ++j) {
    const std::string& tensor = node.input(states + j);
    slots.push_back(
        {"", tensor + ".all", scope.tensors.at(tensor).value, scope.tensors.at(tensor), ""});
  }
  for (const std::string& c : captures) {
    slots.push_back({c, c, scope.tensors.at(c).value, scope.tensors.at(c), ""});
  }

  const ComputationId cond_comp = AddLoopCond(prefix, slots, {0});

  std::vector<ValueId> params;
  for (const OnnxLoopSlot& slot : slots) {
    params.push_back(AddParam(inner, slot.key, prefix + slot.name, slot.tensor));
  }
  // Iteration i reads element i of each scan input in place: a view.
  for (int j = 0; j < scan_inputs; ++j) {
    const ValueId full = params[first_pass_through + j];
    const std::string& key = body.input(states + j).name();
    const ValueId slice =
        AddOp1(inner.computation, "dynamic-slice", {full, params[0]}, prefix + key, slices[j]);
    builder_.value(slice).alias = AliasKind::kView;
    builder_.value(slice).alias_of = full;
    builder_.op(builder_.value(slice).defining_op).cost.bytes_accessed = 0;
    inner.tensors.insert_or_assign(key, OnnxTensor{slice, false, slices[j], std::nullopt});
  }
  if (absl::Status s = AddSubgraphInitializers(inner); !s.ok()) return s;
  if (absl::Status s = AddNodes(inner); !s.ok()) return s;
  std::vector<ValueId> results = {
      AddOp1(inner.computation, "add", {params[0]}, prefix + "iter.next", Counter())};
  std::vector<std::string> outputs;
  std::vector<ValueId> pass_through;
  for (int k = 0; k < states; ++k) {
    outputs.push_back(body.output(k).name());
    pass_through.push_back(params[1 + k]);
  }
  for (ValueId v : SubgraphResults(inner, outputs, pass_through)) results.push_back(v);
  for (int k = 0; k < states; ++k) {
    const Bytes before = slots[1 + k].tensor.type.bytes;
    const Bytes after = builder_.program().values[results[1 + k]].size;
    if (before != after) {
      return Error(
          fmt::format("{}: state '{}' is {} bytes before the scan but the body returns "
                      "{} bytes ('{}')",
                      label, slots[1 + k].name, before, after, outputs[k]));
    }
  }
  for (int j = 0; j < scans; ++j) {
    const size_t slot = 1 + states + j;
    results.push_back(AddAccumulatorUpdate(inner, slots[slot], params[slot], params[0],
                                           body.output(states + j).name()));
  }
  for (size_t k = first_pass_through; k < slots.size(); ++k) results.push_back(params[k]);
  builder_.SetReturn(inner.computation, results);

  AddWhileOp(scope, node, prefix, slots, cond_comp, inner.computation, trip_count);
  return absl::OkStatus();
}

}  // namespace memplan
