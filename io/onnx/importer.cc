#include "io/onnx/importer.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "fmt/format.h"
#include "io/onnx/alias.h"
#include "io/onnx/cost.h"
#include "io/onnx/graph_import.h"
#include "io/onnx/hoist_constants.h"
#include "io/onnx/model.h"
#include "io/onnx/slice_window.h"
#include "io/onnx/subgraph.h"
#include "ir/validate.h"
#include "onnx/defs/schema.h"

namespace memplan {
namespace {

// Ops whose outputs differ between runs even from constant inputs.
constexpr std::array<std::string_view, 6> kRandomOps = {
    "Bernoulli",        "Multinomial",   "RandomNormal",
    "RandomNormalLike", "RandomUniform", "RandomUniformLike",
};

bool HasStaticShape(const onnx::TypeProto* type) {
  if (type == nullptr || !type->has_tensor_type() || !type->tensor_type().has_shape()) return false;
  for (const auto& dim : type->tensor_type().shape().dim()) {
    if (!dim.has_dim_value()) return false;
  }
  return true;
}

// Whether a node's outputs are constants once its inputs' constness is known.
bool ComputesConstant(const onnx::NodeProto& node, bool all_inputs_constant) {
  if (!node.domain().empty()) return false;  // custom ops may have side effects
  if (std::find(kRandomOps.begin(), kRandomOps.end(), node.op_type()) != kRandomOps.end())
    return false;
  // Every dim is static after import, so shapes are compile-time values.
  if (node.op_type() == "Shape" || node.op_type() == "Size") return true;
  return all_inputs_constant;
}

// The `starts` attribute of a static Slice node of the default domain: per
// dim of its data input, the index where the window begins (resolved:
// negative indices counted from the end, clamped, unlisted axes 0), when its
// starts/ends/axes/steps are known, every axis steps by 1 (or takes one
// index) and none is empty. nullopt otherwise. The alias pass makes such a
// window a view at a byte offset when it is contiguous (io/onnx/alias.h).
// Example: Slice(x[1,8,4], starts [-6], ends [4], axes [1]) -> [0, 2, 0].
std::optional<AttrValue> OnnxSliceStartsAttribute(const onnx::NodeProto& node, int opset,
                                                  const OnnxScope& scope) {
  if (!node.domain().empty() || node.op_type() != "Slice" || node.input_size() < 1) {
    return std::nullopt;
  }
  auto data = scope.tensors.find(node.input(0));
  if (data == scope.tensors.end()) return std::nullopt;
  std::vector<FoldInput> inputs;
  for (const std::string& input : node.input()) {
    auto it = input.empty() ? scope.tensors.end() : scope.tensors.find(input);
    const bool known = it != scope.tensors.end() && it->second.known.has_value();
    inputs.push_back(FoldInput{known ? &*it->second.known : nullptr, nullptr});
  }
  std::optional<std::vector<OnnxSliceAxis>> window =
      ResolveOnnxSlice(node, opset, inputs, data->second.type.type.dims);
  if (!window) return std::nullopt;
  AttrValue starts;
  starts.kind = AttrValue::Kind::kList;
  for (const OnnxSliceAxis& axis : *window) {
    if (axis.count == 0 || (axis.step != 1 && axis.count != 1)) return std::nullopt;
    AttrValue start;
    start.i = axis.start;
    starts.list.push_back(start);
  }
  return starts;
}

}  // namespace

std::string OnnxOpcode(const onnx::NodeProto& node) {
  return node.domain().empty() ? "onnx." + node.op_type()
                               : fmt::format("onnx.{}.{}", node.domain(), node.op_type());
}

std::string OnnxScopeName(const onnx::NodeProto& node, int index) {
  return node.name().empty() ? fmt::format("{}_{}", node.op_type(), index) : node.name();
}

OnnxGraphImporter::OnnxGraphImporter(const onnx::ModelProto& model, std::string_view path)
    : graph_(model.graph()), opset_(DefaultOpset(model)), path_(path), builder_(graph_.name()) {}

absl::Status OnnxGraphImporter::Error(std::string_view message) const {
  return OnnxError(path_, message);
}

OnnxScope OnnxGraphImporter::NewScope(const onnx::GraphProto& graph, std::string name,
                                      std::string prefix) {
  OnnxScope scope;
  scope.graph = &graph;
  scope.computation = builder_.AddComputation(UniqueComputationName(name));
  scope.prefix = std::move(prefix);
  // The first fully static declaration of a tensor wins.
  auto note = [&scope](const onnx::ValueInfoProto& info) {
    if (!info.has_type()) return;
    auto [it, inserted] = scope.types.emplace(info.name(), &info.type());
    if (!inserted && !HasStaticShape(it->second) && HasStaticShape(&info.type())) {
      it->second = &info.type();
    }
  };
  for (const auto& info : graph.input()) note(info);
  for (const auto& info : graph.value_info()) note(info);
  for (const auto& info : graph.output()) note(info);
  scope.last_reads = OnnxLastReads(graph);
  return scope;
}

std::string OnnxGraphImporter::UniqueValueName(const std::string& base) {
  std::string name = base;
  for (int i = 1; !value_names_.insert(name).second; ++i) name = fmt::format("{}.{}", base, i);
  return name;
}

std::string OnnxGraphImporter::TensorValueName(const OnnxScope& scope, const std::string& tensor) {
  return scope.prefix.empty() ? tensor : UniqueValueName(scope.prefix + tensor);
}

std::string OnnxGraphImporter::UniqueComputationName(const std::string& base) {
  std::string name = base;
  for (int i = 1; !computation_names_.insert(name).second; ++i)
    name = fmt::format("{}.{}", base, i);
  return name;
}

ValueId OnnxGraphImporter::AddParam(OnnxScope& scope, const std::string& key,
                                    const std::string& value_name, const OnnxTensor& tensor) {
  const ValueId v = builder_.AddParam(scope.computation, UniqueValueName(value_name),
                                      tensor.type.bytes, tensor.type.type);
  if (!key.empty()) {
    OnnxTensor param = tensor;
    param.value = v;
    param.constant = false;  // a parameter's lifetime follows its operand's
    scope.tensors.insert_or_assign(key, std::move(param));
  }
  return v;
}

ValueId OnnxGraphImporter::AddOp1(ComputationId computation, const std::string& opcode,
                                  std::vector<ValueId> operands, const std::string& name,
                                  const OnnxTensorType& type) {
  const OpId op = builder_.AddOp(computation, opcode, std::move(operands));
  return builder_.AddResult(op, UniqueValueName(name), type.bytes, type.type);
}

absl::StatusOr<OnnxTensorType> OnnxGraphImporter::InferredType(const OnnxScope& scope,
                                                               const std::string& tensor,
                                                               const std::string& label) {
  auto it = scope.types.find(tensor);
  if (it == scope.types.end()) {
    return Error(fmt::format("{}: tensor '{}' has no inferred type", label, tensor));
  }
  return SizeOnnxTensor(*it->second, tensor, path_);
}

void OnnxGraphImporter::AddNameAttribute(OpId op, const onnx::NodeProto& node) {
  if (node.name().empty()) return;
  AttrValue name;
  name.kind = AttrValue::Kind::kString;
  name.s = node.name();
  builder_.op(op).attributes.push_back(Attribute{"name", std::move(name)});
}

absl::Status OnnxGraphImporter::AddSubgraphInitializers(OnnxScope& scope) {
  for (const onnx::TensorProto& init : scope.graph->initializer()) {
    absl::StatusOr<OnnxTensorType> type = SizeOnnxInitializer(init, path_);
    if (!type.ok()) return type.status();
    const OpId op = builder_.AddOp(scope.computation, "constant", {});
    const ValueId v = builder_.AddResult(op, UniqueValueName(scope.prefix + init.name()),
                                         type->bytes, type->type);
    builder_.value(v).lifetime = Lifetime::kConstant;
    scope.tensors.insert_or_assign(init.name(),
                                   OnnxTensor{v, true, *std::move(type), KnownTensorFromProto(init)});
  }
  return absl::OkStatus();
}

absl::Status OnnxGraphImporter::AddNodes(OnnxScope& scope) {
  const std::string where =
      scope.prefix.empty()
          ? ""
          : fmt::format(" in '{}'", scope.prefix.substr(0, scope.prefix.size() - 1));
  const OnnxFolding folding = PlanFolding(scope);
  for (int i = 0; i < scope.graph->node_size(); ++i) {
    const onnx::NodeProto& node = scope.graph->node(i);
    const std::string label = OnnxNodeLabel(node, i) + where;
    absl::Status s;
    if (IsOnnxControlFlow(node) && node.op_type() == "If") {
      s = AddIf(scope, node, i, label);
    } else if (IsOnnxControlFlow(node) && node.op_type() == "Loop") {
      s = AddLoop(scope, node, i, label);
    } else if (IsOnnxControlFlow(node)) {
      s = AddScan(scope, node, i, label);
    } else if (auto folded = folding.values.find(i); folded != folding.values.end()) {
      s = AddFoldedNode(scope, node, folded->second, folding);
    } else {
      s = AddPlainNode(scope, node, label);
    }
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status OnnxGraphImporter::AddPlainNode(OnnxScope& scope, const onnx::NodeProto& node,
                                             const std::string& label) {
  std::vector<ValueId> operands;
  std::vector<const OnnxTensorType*> input_types;
  bool all_constant = true;
  for (const std::string& input : node.input()) {
    if (input.empty()) {  // omitted optional input
      input_types.push_back(nullptr);
      continue;
    }
    const OnnxTensor& tensor = scope.tensors.at(input);  // ReadOnnxModel checked the dataflow
    operands.push_back(tensor.value);
    input_types.push_back(&tensor.type);
    all_constant = all_constant && tensor.constant;
  }
  const bool constant = ComputesConstant(node, all_constant);
  const OpId op = builder_.AddOp(scope.computation, OnnxOpcode(node), std::move(operands));
  AddNameAttribute(op, node);
  std::vector<const OnnxTensorType*> output_types;
  for (const std::string& output : node.output()) {
    output_types.push_back(nullptr);
    if (output.empty()) continue;  // omitted optional output
    auto type_it = scope.types.find(output);
    const onnx::TypeProto* type = type_it == scope.types.end() ? nullptr : type_it->second;
    if (!scope.last_reads.contains(output) && !HasStaticShape(type)) continue;  // dead, unsized
    if (type == nullptr) {
      const bool has_schema = onnx::OpSchemaRegistry::Schema(node.op_type(), opset_, node.domain());
      return Error(fmt::format("{}: output '{}' has no inferred type{}", label, output,
                               has_schema ? ""
                                          : " (the op is not in libonnx's schema registry; "
                                            "give its outputs shapes in value_info)"));
    }
    absl::StatusOr<OnnxTensorType> sized = SizeOnnxTensor(*type, output, path_);
    if (!sized.ok()) return sized.status();
    const ValueId v =
        builder_.AddResult(op, TensorValueName(scope, output), sized->bytes, sized->type);
    if (constant) builder_.value(v).lifetime = Lifetime::kConstant;
    OnnxTensor tensor{v, constant, *std::move(sized), std::nullopt};
    output_types.back() =
        &scope.tensors.insert_or_assign(output, std::move(tensor)).first->second.type;
  }
  builder_.op(op).cost = OnnxNodeCost(node, input_types, output_types);
  if (std::optional<AttrValue> starts = OnnxSliceStartsAttribute(node, opset_, scope)) {
    builder_.op(op).attributes.push_back(Attribute{"starts", *std::move(starts)});
  }
  return absl::OkStatus();
}

absl::StatusOr<Program> OnnxGraphImporter::Build() && {
  // The main graph's names are kept unchanged; scoped subgraph names yield.
  for (const auto& input : graph_.input()) value_names_.insert(input.name());
  for (const auto& init : graph_.initializer()) value_names_.insert(init.name());
  for (const auto& node : graph_.node()) {
    for (const std::string& output : node.output()) value_names_.insert(output);
  }
  OnnxScope main = NewScope(graph_, graph_.name().empty() ? "main" : graph_.name(), "");
  builder_.SetEntry(main.computation);
  std::unordered_set<std::string> initializers;
  for (const auto& init : graph_.initializer()) initializers.insert(init.name());
  for (const onnx::ValueInfoProto& input : graph_.input()) {
    if (initializers.contains(input.name())) continue;  // IR < 4 lists weights as inputs
    absl::StatusOr<OnnxTensorType> type = SizeOnnxTensor(input.type(), input.name(), path_);
    if (!type.ok()) return type.status();
    const ValueId v = builder_.AddParam(main.computation, input.name(), type->bytes, type->type);
    builder_.value(v).lifetime = Lifetime::kExternal;
    main.tensors.emplace(input.name(), OnnxTensor{v, false, *std::move(type), std::nullopt});
  }
  for (const onnx::TensorProto& init : graph_.initializer()) {
    absl::StatusOr<OnnxTensorType> type = SizeOnnxInitializer(init, path_);
    if (!type.ok()) return type.status();
    // Weights are entry parameters of the constant lifetime: uploaded once
    // before the run, so they take no step of the schedule (and are the
    // candidates for a cross-program prefetch).
    const ValueId v = builder_.AddParam(main.computation, init.name(), type->bytes, type->type);
    builder_.value(v).lifetime = Lifetime::kConstant;
    main.tensors.insert_or_assign(init.name(),
                                  OnnxTensor{v, true, *std::move(type), KnownTensorFromProto(init)});
  }
  if (absl::Status s = AddNodes(main); !s.ok()) return s;
  std::vector<ValueId> results;
  for (const onnx::ValueInfoProto& output : graph_.output()) {
    const ValueId v = main.tensors.at(output.name()).value;
    Value& value = builder_.value(v);
    // A returned graph input is already external; a returned initializer stays constant.
    if (value.defining_op != kNoId) value.lifetime = Lifetime::kExternal;
    results.push_back(v);
  }
  builder_.SetReturn(main.computation, std::move(results));
  Program program = std::move(builder_).Finish();
  program.source = std::string(path_);
  return program;
}

absl::StatusOr<OnnxPrograms> ImportOnnxPrograms(const std::string& path,
                                                const OnnxImportOptions& options,
                                                bool also_unaliased) {
  absl::StatusOr<onnx::ModelProto> model = ReadOnnxModel(path);
  if (!model.ok()) return model.status();
  if (absl::Status s = SetOnnxInputShapes(*model->mutable_graph(), options.input_shapes, path);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = InferOnnxShapes(*model, options.dims, path); !s.ok()) {
    // Exporters often bake the traced shapes into constants: name the new
    // shapes as the likely cause of a failed inference.
    if (options.input_shapes.empty() ||
        !absl::StrContains(s.message(), "shape inference failed")) {
      return s;
    }
    std::string given;
    for (const auto& [name, dims] : options.input_shapes.shapes) {
      given += fmt::format(" --input-shape {}={}", name, FormatInputShape(dims));
    }
    if (options.input_shapes.batch) given += fmt::format(" --batch {}", *options.input_shapes.batch);
    return absl::Status(s.code(), fmt::format("{}; the model may not allow the input shapes given "
                                              "with{}",
                                              std::string(s.message()), given));
  }
  const auto build = [&](bool alias) -> absl::StatusOr<Program> {
    absl::StatusOr<Program> program = OnnxGraphImporter(*model, path).Build();
    if (!program.ok()) return program.status();
    if (options.hoist_constants) HoistConstantOps(*program, alias);
    if (alias) AssignOnnxAliases(*program);
    if (absl::Status s = ValidateProgram(*program, path); !s.ok()) return s;
    return program;
  };
  absl::StatusOr<Program> program = build(options.alias);
  if (!program.ok()) return program.status();
  OnnxPrograms programs{*std::move(program), std::nullopt};
  if (also_unaliased && options.alias) {
    absl::StatusOr<Program> unaliased = build(false);
    if (!unaliased.ok()) return unaliased.status();
    programs.unaliased = *std::move(unaliased);
  }
  return programs;
}

absl::StatusOr<Program> ImportOnnx(const std::string& path, const OnnxImportOptions& options) {
  absl::StatusOr<OnnxPrograms> programs = ImportOnnxPrograms(path, options, false);
  if (!programs.ok()) return programs.status();
  return std::move(programs->program);
}

}  // namespace memplan
