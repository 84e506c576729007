#include "io/onnx/windowed_inference.h"

#include <algorithm>
#include <exception>
#include <unordered_set>
#include <vector>

#include "io/onnx/fold.h"
#include "io/onnx/model.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"

namespace memplan {
namespace {

std::optional<std::vector<std::int64_t>> StaticDimsOf(const onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return std::nullopt;
  std::vector<std::int64_t> dims;
  for (const auto& dim : type.tensor_type().shape().dim()) {
    if (!dim.has_dim_value()) return std::nullopt;
    dims.push_back(dim.dim_value());
  }
  return dims;
}

bool HasSubgraph(const onnx::GraphProto& graph) {
  for (const onnx::NodeProto& node : graph.node()) {
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (attr.has_g() || attr.graphs_size() > 0) return true;
    }
  }
  return false;
}

// Whether initializer `init` goes into a window as data: shape inference
// reads the data of small ones (Reshape shapes, Resize scales); weights
// are given by type alone.
bool SmallInitializer(const onnx::TensorProto& init) {
  if (init.data_location() == onnx::TensorProto::EXTERNAL) return false;
  std::int64_t elements = 1;
  for (std::int64_t d : init.dims()) {
    if (d < 0 || (d > 0 && elements > kMaxFoldElements / d)) return false;
    elements *= d;
  }
  return elements <= kMaxFoldElements;
}

onnx::TypeProto InitializerType(const onnx::TensorProto& init) {
  onnx::TypeProto type;
  onnx::TypeProto_Tensor* tensor = type.mutable_tensor_type();
  tensor->set_elem_type(init.data_type());
  onnx::TensorShapeProto* shape = tensor->mutable_shape();
  for (std::int64_t d : init.dims()) shape->add_dim()->set_dim_value(d);
  return type;
}

}  // namespace

std::optional<onnx::GraphProto> InferInWindows(onnx::ModelProto& model,
                                               std::unordered_map<std::string, KnownTensor>& values) {
  onnx::GraphProto& graph = *model.mutable_graph();
  if (HasSubgraph(graph)) return std::nullopt;
  const int opset = DefaultOpset(model);
  std::unordered_map<std::string, const onnx::TensorProto*> initializers;
  std::unordered_map<std::string, onnx::TypeProto> types;  // inferred (or declared) so far
  OnnxKnownDims dims;
  auto note = [&](const std::string& name, const onnx::TypeProto& type) {
    if (std::optional<std::vector<std::int64_t>> d = StaticDimsOf(type)) {
      dims.insert_or_assign(name, *std::move(d));
    } else {
      dims.erase(name);
    }
    types.insert_or_assign(name, type);
  };
  for (const onnx::TensorProto& init : graph.initializer()) {
    initializers.emplace(init.name(), &init);
    dims.insert_or_assign(init.name(), std::vector<std::int64_t>(init.dims().begin(), init.dims().end()));
  }
  for (const onnx::ValueInfoProto& input : graph.input()) {
    if (!initializers.contains(input.name())) note(input.name(), input.type());
  }
  std::unordered_map<std::string, const onnx::ValueInfoProto*> declared;
  for (const onnx::ValueInfoProto& info : graph.value_info()) declared.emplace(info.name(), &info);

  const onnx::ShapeInferenceOptions options(/*check_type_val=*/true, /*strict_mode_val=*/1,
                                            /*data_prop_val=*/true);
  const int n = graph.node_size();
  for (int first = 0; first < n;) {
    const int end = std::min(n, first + kWindowNodes);
    onnx::ModelProto window;
    window.set_ir_version(std::max<std::int64_t>(model.ir_version(), 4));  // initializers need not be inputs
    *window.mutable_opset_import() = model.opset_import();
    *window.mutable_functions() = model.functions();
    onnx::GraphProto& g = *window.mutable_graph();
    std::unordered_set<std::string> defined;
    for (int i = first; i < end; ++i) {
      const onnx::NodeProto& node = graph.node(i);
      for (const std::string& input : node.input()) {
        if (input.empty() || !defined.insert(input).second) continue;
        if (auto v = values.find(input); v != values.end()) {
          onnx::TensorProto* data = g.add_initializer();
          *data = KnownTensorToProto(v->second);
          data->set_name(input);
          continue;
        }
        onnx::ValueInfoProto* info = g.add_input();
        info->set_name(input);
        if (auto init = initializers.find(input); init != initializers.end()) {
          *info->mutable_type() = InitializerType(*init->second);
          if (SmallInitializer(*init->second)) *g.add_initializer() = *init->second;
        } else if (auto type = types.find(input); type != types.end()) {
          *info->mutable_type() = type->second;
        } else {
          return std::nullopt;
        }
      }
      *g.add_node() = node;
      for (const std::string& output : node.output()) {
        if (output.empty()) continue;
        defined.insert(output);
        if (auto d = declared.find(output); d != declared.end()) *g.add_value_info() = *d->second;
      }
    }
    try {
      onnx::shape_inference::InferShapes(window, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    for (const onnx::ValueInfoProto& info : g.value_info()) note(info.name(), info.type());
    int resume = end;
    for (int i = first; i < end; ++i) {
      if (FoldIntoConstant(*graph.mutable_node(i), opset, values, dims) && resume == end) {
        resume = i + 1;
      }
    }
    first = resume;
  }

  std::unordered_set<std::string> outputs;
  for (const onnx::ValueInfoProto& output : graph.output()) outputs.insert(output.name());
  onnx::GraphProto inferred;
  *inferred.mutable_input() = graph.input();
  for (const onnx::NodeProto& node : graph.node()) {
    for (const std::string& output : node.output()) {
      if (output.empty()) continue;
      auto type = types.find(output);
      if (type == types.end() || !dims.contains(output)) return std::nullopt;
      if (outputs.contains(output)) continue;
      onnx::ValueInfoProto* info = inferred.add_value_info();
      info->set_name(output);
      *info->mutable_type() = type->second;
    }
  }
  for (const onnx::ValueInfoProto& output : graph.output()) {
    onnx::ValueInfoProto* info = inferred.add_output();
    *info = output;
    if (auto type = types.find(output.name()); type != types.end()) *info->mutable_type() = type->second;
  }
  return inferred;
}

}  // namespace memplan
