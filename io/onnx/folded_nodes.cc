// Nodes that fold away at import time (see io/onnx/graph_import.h,
// OnnxFolding): a shape computation evaluated from constants and static dims
// takes no step of the schedule and, unless a remaining node reads it, no
// buffer — as ONNX Runtime's constant folding turns such subgraphs into
// initializers before a run.
#include <utility>

#include "fmt/format.h"
#include "io/onnx/graph_import.h"
#include "io/onnx/model.h"
#include "io/onnx/subgraph.h"

namespace memplan {

OnnxFolding OnnxGraphImporter::PlanFolding(const OnnxScope& scope) const {
  OnnxFolding folding;
  // Known values by ONNX name: the scope's initializers and captures, then
  // each folded output in graph order.
  std::unordered_map<std::string, KnownTensor> values;
  std::unordered_map<std::string, std::vector<std::int64_t>> dims;
  for (const auto& [name, tensor] : scope.tensors) {
    if (tensor.known) values.emplace(name, *tensor.known);
    dims.emplace(name, tensor.type.type.dims);
  }
  auto static_dims = [&](const std::string& name) -> const std::vector<std::int64_t>* {
    if (auto it = dims.find(name); it != dims.end()) return &it->second;
    auto type = scope.types.find(name);
    if (type == scope.types.end() || !type->second->has_tensor_type() ||
        !type->second->tensor_type().has_shape()) {
      return nullptr;
    }
    std::vector<std::int64_t> d;
    for (const auto& dim : type->second->tensor_type().shape().dim()) {
      if (!dim.has_dim_value()) return nullptr;
      d.push_back(dim.dim_value());
    }
    return &dims.emplace(name, std::move(d)).first->second;
  };
  const onnx::GraphProto& graph = *scope.graph;
  std::unordered_set<std::string> folded_outputs;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    if (!node.domain().empty() || IsOnnxControlFlow(node) || node.output_size() != 1 ||
        node.output(0).empty()) {
      continue;
    }
    std::vector<FoldInput> inputs(node.input_size());
    for (int j = 0; j < node.input_size(); ++j) {
      if (node.input(j).empty()) continue;
      auto v = values.find(node.input(j));
      if (v != values.end()) inputs[j].value = &v->second;
      inputs[j].dims = static_dims(node.input(j));
    }
    std::optional<KnownTensor> value = FoldNode(node, opset_, inputs);
    if (!value) continue;
    values.insert_or_assign(node.output(0), *value);
    dims.insert_or_assign(node.output(0), value->dims);
    folded_outputs.insert(node.output(0));
    folding.values.emplace(i, *std::move(value));
  }
  // A folded output is needed when anything that stays reads it.
  auto note = [&](const std::string& name) {
    if (folded_outputs.contains(name)) folding.needed.insert(name);
  };
  for (int i = 0; i < graph.node_size(); ++i) {
    if (folding.values.contains(i)) continue;
    const onnx::NodeProto& node = graph.node(i);
    for (const std::string& input : node.input()) note(input);
    for (const auto& attr : node.attribute()) {
      if (!attr.has_g()) continue;
      for (const std::string& capture : OnnxCaptures(attr.g())) note(capture);
    }
  }
  for (const auto& output : graph.output()) note(output.name());
  return folding;
}

absl::Status OnnxGraphImporter::AddFoldedNode(OnnxScope& scope, const onnx::NodeProto& node,
                                              const KnownTensor& value,
                                              const OnnxFolding& folding) {
  const std::string& output = node.output(0);
  onnx::TypeProto type;
  type.mutable_tensor_type()->set_elem_type(value.elem_type);
  onnx::TensorShapeProto* shape = type.mutable_tensor_type()->mutable_shape();
  for (std::int64_t d : value.dims) shape->add_dim()->set_dim_value(d);
  absl::StatusOr<OnnxTensorType> sized = SizeOnnxTensor(type, output, path_);
  if (!sized.ok()) return sized.status();
  OnnxTensor tensor{kNoId, true, *std::move(sized), value};
  if (folding.needed.contains(output)) {
    const std::string name = TensorValueName(scope, output);
    if (scope.prefix.empty()) {
      // Like an initializer: uploaded once before the run, no step.
      tensor.value =
          builder_.AddParam(scope.computation, name, tensor.type.bytes, tensor.type.type);
    } else {
      const OpId op = builder_.AddOp(scope.computation, "constant", {});
      tensor.value = builder_.AddResult(op, name, tensor.type.bytes, tensor.type.type);
    }
    builder_.value(tensor.value).lifetime = Lifetime::kConstant;
  }
  scope.tensors.insert_or_assign(output, std::move(tensor));
  return absl::OkStatus();
}

}  // namespace memplan
