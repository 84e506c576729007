#include "io/onnx/shapes.h"

#include <algorithm>
#include <exception>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "fmt/format.h"
#include "fmt/ranges.h"
#include "io/onnx/child_process.h"
#include "io/onnx/dtype.h"
#include "io/onnx/fold.h"
#include "io/onnx/inference_message.h"
#include "io/onnx/model.h"
#include "io/onnx/symbolic_dims.h"
#include "io/onnx/windowed_inference.h"
#include "ir/dtype.h"
#include "ir/units.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"

namespace memplan {
namespace {

using Dims = std::vector<std::int64_t>;

std::string_view TypeCaseName(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kSequenceType:
      return "a sequence type";
    case onnx::TypeProto::kMapType:
      return "a map type";
    case onnx::TypeProto::kOptionalType:
      return "an optional type";
    case onnx::TypeProto::kSparseTensorType:
      return "a sparse tensor type";
    case onnx::TypeProto::kOpaqueType:
      return "an opaque type";
    default:
      return "no type";
  }
}

absl::StatusOr<OnnxTensorType> Sized(std::int32_t elem_type, Dims dims, std::string_view tensor,
                                     std::string_view path) {
  std::optional<std::string_view> dtype = OnnxDtypeOf(elem_type);
  if (!dtype) {
    return OnnxError(path, fmt::format("tensor '{}' has unsupported dtype {}", tensor,
                                       OnnxDtypeName(elem_type)));
  }
  OnnxTensorType out;
  out.type.dtype = std::string(*dtype);
  out.type.dims = std::move(dims);
  const bool negative = std::any_of(out.type.dims.begin(), out.type.dims.end(),
                                    [](std::int64_t d) { return d < 0; });
  absl::StatusOr<Bytes> bytes = TensorBytes(out.type);
  if (!bytes.ok() && negative) {
    return OnnxError(path,
                     fmt::format("tensor '{}': {}", tensor, std::string(bytes.status().message())));
  }
  // Checked here, before any cost sums sizes: no input may exceed it anyway.
  if (!bytes.ok() || *bytes > kMaxTotalBytes) {
    const std::string size =
        bytes.ok() ? fmt::format("is {} bytes", *bytes) : "has more than 2^63 - 1 bytes";
    return OnnxError(path, fmt::format("tensor '{}' {} (shape [{}], {}), above the limit of 2^62 "
                                       "({}) bytes",
                                       tensor, size, fmt::join(out.type.dims, ", "),
                                       OnnxDtypeName(elem_type), kMaxTotalBytes));
  }
  out.bytes = *bytes;
  return out;
}

// Static dims of `type`, or the error naming the first dim that is not static.
absl::StatusOr<Dims> StaticDims(const onnx::TypeProto& type, std::string_view tensor,
                                std::string_view path) {
  if (!type.has_tensor_type()) {
    return OnnxError(path, fmt::format("tensor '{}' has {}; only dense tensors are supported",
                                       tensor, TypeCaseName(type)));
  }
  if (!type.tensor_type().has_shape()) {
    return OnnxError(path, fmt::format("tensor '{}' has no shape (shape inference could not "
                                       "determine it)",
                                       tensor));
  }
  Dims dims;
  const onnx::TensorShapeProto& shape = type.tensor_type().shape();
  for (int i = 0; i < shape.dim_size(); ++i) {
    const onnx::TensorShapeProto::Dimension& dim = shape.dim(i);
    if (dim.has_dim_value()) {
      dims.push_back(dim.dim_value());
    } else if (dim.has_dim_param() && !dim.dim_param().empty()) {
      return OnnxError(
          path, fmt::format("tensor '{}' dim {} '{}' is symbolic; bind it with --dim {}=VALUE",
                            tensor, i, dim.dim_param(), dim.dim_param()));
    } else {
      return OnnxError(path,
                       fmt::format("tensor '{}' dim {} is unknown (it has neither a value nor "
                                   "a name to bind with --dim)",
                                   tensor, i));
    }
  }
  return dims;
}

// Whether `type` is a tensor of a supported dtype whose shape is known except
// for named symbolic dims (which --dim can bind), at least one.
bool OnlyNamedSymbolicDims(const onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape() ||
      !OnnxDtypeOf(type.tensor_type().elem_type())) {
    return false;
  }
  bool symbolic = false;
  for (const auto& dim : type.tensor_type().shape().dim()) {
    if (dim.has_dim_value()) continue;
    if (!dim.has_dim_param() || dim.dim_param().empty()) return false;
    symbolic = true;
  }
  return symbolic;
}

// Replaces every dim_param named in `dims` by its value in the graph's
// inputs, outputs and value_info, adding every dim_param seen to `seen`.
// Returns whether any dim changed.
bool BindDims(onnx::GraphProto& graph, const OnnxDimBindings& dims,
              std::set<std::string>& seen) {
  bool changed = false;
  auto bind = [&](onnx::ValueInfoProto& info) {
    if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape()) return;
    for (onnx::TensorShapeProto::Dimension& dim :
         *info.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
      if (!dim.has_dim_param()) continue;
      seen.insert(dim.dim_param());
      auto bound = dims.find(dim.dim_param());
      if (bound == dims.end()) continue;
      dim.set_dim_value(bound->second);
      changed = true;
    }
  };
  for (auto& info : *graph.mutable_input()) bind(info);
  for (auto& info : *graph.mutable_output()) bind(info);
  for (auto& info : *graph.mutable_value_info()) bind(info);
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    for (onnx::AttributeProto& attr : *node.mutable_attribute()) {
      if (attr.has_g() && BindDims(*attr.mutable_g(), dims, seen)) changed = true;
    }
  }
  return changed;
}

// The types shape inference wrote into `graph`: its inputs, value_info and
// outputs, and those of its subgraphs (kept under nodes that carry only their
// graph attributes, at the same node and attribute positions).
onnx::GraphProto InferredTypes(const onnx::GraphProto& graph) {
  onnx::GraphProto types;
  *types.mutable_input() = graph.input();
  *types.mutable_value_info() = graph.value_info();
  *types.mutable_output() = graph.output();
  for (const onnx::NodeProto& node : graph.node()) {
    onnx::NodeProto* skeleton = types.add_node();
    for (const onnx::AttributeProto& attr : node.attribute()) {
      onnx::AttributeProto* kept = skeleton->add_attribute();
      if (attr.has_g()) *kept->mutable_g() = InferredTypes(attr.g());
    }
  }
  return types;
}

// Copies the subgraph types of `from` (an InferredTypes result, or a graph of
// the same node structure) into the subgraphs of `to`'s nodes.
void CopySubgraphTypes(const onnx::GraphProto& from, onnx::GraphProto& to) {
  for (int i = 0; i < to.node_size() && i < from.node_size(); ++i) {
    onnx::NodeProto& node = *to.mutable_node(i);
    const onnx::NodeProto& source = from.node(i);
    for (int j = 0; j < node.attribute_size() && j < source.attribute_size(); ++j) {
      if (!node.attribute(j).has_g() || !source.attribute(j).has_g()) continue;
      const onnx::GraphProto& sub_from = source.attribute(j).g();
      onnx::GraphProto& sub = *node.mutable_attribute(j)->mutable_g();
      for (int k = 0; k < sub.input_size() && k < sub_from.input_size(); ++k) {
        *sub.mutable_input(k) = sub_from.input(k);
      }
      *sub.mutable_value_info() = sub_from.value_info();
      for (int k = 0; k < sub.output_size() && k < sub_from.output_size(); ++k) {
        *sub.mutable_output(k) = sub_from.output(k);
      }
      CopySubgraphTypes(sub_from, sub);
    }
  }
}

// Replaces `graph`'s value_info and output types by the inferred `types`
// (an InferredTypes result) and copies its subgraph types.
void ApplyInferredTypes(onnx::GraphProto types, onnx::GraphProto& graph) {
  *graph.mutable_value_info() = std::move(*types.mutable_value_info());
  for (int i = 0; i < graph.output_size() && i < types.output_size(); ++i) {
    *graph.mutable_output(i) = std::move(*types.mutable_output(i));
  }
  CopySubgraphTypes(types, graph);
}

// Runs ONNX shape inference on `model` in a child process (see
// onnx_child_process.h) and copies the inferred value_info and graph output
// types back into `model`.
absl::Status RunShapeInference(onnx::ModelProto& model, std::string_view path) {
  absl::StatusOr<std::string> reply = RunInChildProcess([&model]() -> std::string {
    try {
      const onnx::ShapeInferenceOptions options(/*check_type_val=*/true, /*strict_mode_val=*/1,
                                                /*data_prop_val=*/true);
      onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
      return "E" + std::string(e.what());
    }
    return "O" + InferredTypes(model.graph()).SerializeAsString();
  });
  auto crashed = [path](std::string_view why) {
    return OnnxError(path,
                     fmt::format("ONNX shape inference crashed ({}); libonnx does not check "
                                 "every input of every op, so the model is probably malformed "
                                 "(e.g. a node input of the wrong rank)",
                                 why));
  };
  if (!reply.ok()) return crashed(std::string(reply.status().message()));
  if (!reply->empty() && reply->front() == 'E') {
    return OnnxError(path, fmt::format("ONNX shape inference failed at {}",
                                       OneLineInferenceMessage(std::string_view(*reply).substr(1))));
  }
  onnx::GraphProto types;
  if (reply->empty() ||
      !types.ParseFromArray(reply->data() + 1, static_cast<int>(reply->size() - 1))) {
    return crashed("no result");
  }
  ApplyInferredTypes(std::move(types), *model.mutable_graph());
  return absl::OkStatus();
}

// Runs InferInWindows in a child process and applies its types to `model`.
// Returns whether it did; `model`'s nodes stay as they are either way (the
// child folds its own copy).
bool InferShapesInWindows(onnx::ModelProto& model,
                          const std::unordered_map<std::string, KnownTensor>& values) {
  absl::StatusOr<std::string> reply = RunInChildProcess([&model, &values]() -> std::string {
    std::unordered_map<std::string, KnownTensor> known = values;
    std::optional<onnx::GraphProto> types = InferInWindows(model, known);
    return types ? "O" + types->SerializeAsString() : "F";
  });
  onnx::GraphProto types;
  if (!reply.ok() || reply->empty() || reply->front() != 'O' ||
      !types.ParseFromArray(reply->data() + 1, static_cast<int>(reply->size() - 1))) {
    return false;
  }
  ApplyInferredTypes(std::move(types), *model.mutable_graph());
  return true;
}

// Static dims of every tensor of `graph` whose shape is fully known so far,
// added to `known` (the enclosing graphs' tensors, for a subgraph).
std::unordered_map<std::string, Dims> KnownDims(const onnx::GraphProto& graph,
                                                std::unordered_map<std::string, Dims> known = {}) {
  auto note = [&](const onnx::ValueInfoProto& info) {
    if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape()) return;
    Dims dims;
    for (const auto& dim : info.type().tensor_type().shape().dim()) {
      if (!dim.has_dim_value()) return;
      dims.push_back(dim.dim_value());
    }
    known.insert_or_assign(info.name(), std::move(dims));
  };
  for (const auto& info : graph.input()) note(info);
  for (const auto& info : graph.value_info()) note(info);
  for (const auto& info : graph.output()) note(info);
  for (const auto& init : graph.initializer()) {
    known.insert_or_assign(init.name(), Dims(init.dims().begin(), init.dims().end()));
  }
  return known;
}

// ONNX 1.12 types a Loop's loop-carried outputs by element type only ("shape
// may change across iterations") and its scan outputs with an unknown first
// dim. With static shapes neither can change: a loop-carried output has its
// initial value's dims (the importer checks that the body keeps them) and a
// scan output stacks M rows of the body's output, for a known M. Adds those
// types to `graph`'s value_info so inference can continue past the Loop;
// returns whether it added any.
bool AddLoopOutputTypes(onnx::GraphProto& graph, const onnx::NodeProto& node,
                        const std::unordered_map<std::string, Dims>& dims,
                        const std::unordered_map<std::string, KnownTensor>& values) {
  const onnx::GraphProto* body = nullptr;
  for (const onnx::AttributeProto& attr : node.attribute()) {
    if (attr.name() == "body" && attr.has_g()) body = &attr.g();
  }
  if (body == nullptr) return false;
  const int carried = node.input_size() - 2;
  bool added = false;
  auto add = [&](const std::string& name, std::int32_t elem_type, const Dims& shape) {
    if (name.empty() || dims.contains(name) || elem_type == 0) return;
    onnx::ValueInfoProto* info = graph.add_value_info();
    info->set_name(name);
    onnx::TypeProto_Tensor* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elem_type);
    for (std::int64_t d : shape) tensor->mutable_shape()->add_dim()->set_dim_value(d);
    added = true;
  };
  auto elem_type = [&](int body_output) {
    if (body_output >= body->output_size()) return 0;
    return body->output(body_output).type().tensor_type().elem_type();
  };
  for (int k = 0; k < carried && k < node.output_size(); ++k) {
    auto init = dims.find(node.input(2 + k));
    if (init != dims.end()) add(node.output(k), elem_type(1 + k), init->second);
  }
  auto trip = node.input_size() > 0 ? values.find(node.input(0)) : values.end();
  if (trip == values.end() || trip->second.values.size() != 1) return added;
  for (int k = std::max(carried, 0); k < node.output_size() && 1 + k < body->output_size(); ++k) {
    const onnx::TypeProto& row = body->output(1 + k).type();
    if (!row.tensor_type().has_shape()) continue;
    Dims shape = {trip->second.values[0]};
    bool known = true;
    for (const auto& d : row.tensor_type().shape().dim()) {
      known = known && d.has_dim_value();
      shape.push_back(d.dim_value());
    }
    if (known) add(node.output(k), elem_type(1 + k), shape);
  }
  return added;
}

// One folding pass in graph order over `graph` (the copy being inferred):
// records newly known integer values in `values` and replaces folded nodes
// by Constant nodes, then folds the subgraphs of its nodes the same way, seeing
// the values and dims of the enclosing graphs (`outer_dims`). A subgraph's
// values stay its own (sibling branches may reuse names). Also types Loop
// outputs (AddLoopOutputTypes). Returns whether any node was replaced or
// type added.
bool FoldPass(onnx::GraphProto& graph, int opset,
              std::unordered_map<std::string, KnownTensor>& values,
              const std::unordered_map<std::string, Dims>& outer_dims = {}) {
  const std::unordered_map<std::string, Dims> dims = KnownDims(graph, outer_dims);
  bool replaced = false;
  for (int i = 0; i < graph.node_size(); ++i) {
    onnx::NodeProto& node = *graph.mutable_node(i);
    for (onnx::AttributeProto& attr : *node.mutable_attribute()) {
      if (!attr.has_g()) continue;
      std::unordered_map<std::string, KnownTensor> inner = values;
      if (FoldPass(*attr.mutable_g(), opset, inner, dims)) replaced = true;
    }
    if (node.domain().empty() && node.op_type() == "Loop" &&
        AddLoopOutputTypes(graph, node, dims, values)) {
      replaced = true;
    }
    if (FoldIntoConstant(node, opset, values, dims)) replaced = true;
  }
  return replaced;
}

// Integer initializers of `graph`'s subgraphs (at any depth) into `values`.
void SubgraphInitializerValues(const onnx::GraphProto& graph,
                               std::unordered_map<std::string, KnownTensor>& values) {
  for (const onnx::NodeProto& node : graph.node()) {
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (!attr.has_g()) continue;
      for (const onnx::TensorProto& init : attr.g().initializer()) {
        if (std::optional<KnownTensor> v = KnownTensorFromProto(init))
          values.insert_or_assign(init.name(), *std::move(v));
      }
      SubgraphInitializerValues(attr.g(), values);
    }
  }
}

}  // namespace

absl::StatusOr<OnnxTensorType> SizeOnnxTensor(const onnx::TypeProto& type, std::string_view tensor,
                                              std::string_view path) {
  if (type.has_tensor_type() && !OnnxDtypeOf(type.tensor_type().elem_type())) {
    return Sized(type.tensor_type().elem_type(), {}, tensor, path);  // reports the dtype
  }
  absl::StatusOr<Dims> dims = StaticDims(type, tensor, path);
  if (!dims.ok()) return dims.status();
  return Sized(type.tensor_type().elem_type(), *std::move(dims), tensor, path);
}

absl::StatusOr<OnnxTensorType> SizeOnnxInitializer(const onnx::TensorProto& tensor,
                                                   std::string_view path) {
  return Sized(tensor.data_type(), Dims(tensor.dims().begin(), tensor.dims().end()), tensor.name(),
               path);
}

namespace {

// Whether `name` has the form ONNX shape inference gives the symbolic dims
// it creates (`unk__` and a number): such a name may appear only after it.
bool InferenceDimName(std::string_view name) {
  constexpr std::string_view kPrefix = "unk__";
  return name.size() > kPrefix.size() && name.starts_with(kPrefix) &&
         std::all_of(name.begin() + kPrefix.size(), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// The symbolic dim names of the graph's inputs (initializers excluded): the
// dims a user binds. Exporters also name inner dims (`MatMul222_dim_0`); those
// follow from the inputs, so an error does not offer them.
std::set<std::string> InputDimNames(const onnx::GraphProto& graph) {
  std::unordered_set<std::string> initializers;
  for (const onnx::TensorProto& init : graph.initializer()) initializers.insert(init.name());
  std::set<std::string> names;
  for (const onnx::ValueInfoProto& input : graph.input()) {
    if (initializers.contains(input.name()) || !input.type().has_tensor_type()) continue;
    for (const auto& dim : input.type().tensor_type().shape().dim()) {
      if (dim.has_dim_param() && !dim.dim_param().empty()) names.insert(dim.dim_param());
    }
  }
  return names;
}

// The error for the first binding in `dims` that names none of the symbolic
// dims in `seen` (most likely a typo), or OK. With `before_inference`, names
// inference may still create are not checked yet. The message lists the
// input dims `inputs` (those a user can bind).
absl::Status UnknownDimBinding(const OnnxDimBindings& dims, const std::set<std::string>& seen,
                               const std::set<std::string>& inputs, std::string_view path,
                               bool before_inference) {
  for (const auto& [name, value] : dims) {
    if (seen.contains(name) || (before_inference && InferenceDimName(name))) continue;
    std::string names;
    for (const std::string& s : inputs) names += (names.empty() ? "" : ", ") + s;
    return OnnxError(path, fmt::format("--dim {}={}: the model has no symbolic dim '{}' ({})", name,
                                       value, name,
                                       inputs.empty()
                                           ? "its inputs have no symbolic dims"
                                           : "the symbolic dims of its inputs: " + names));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status InferOnnxShapes(onnx::ModelProto& model, const OnnxDimBindings& dims,
                             std::string_view path) {
  for (const auto& [name, value] : dims) {
    if (value < 0)
      return OnnxError(path,
                       fmt::format("dim '{}' is bound to {}; dims must be >= 0", name, value));
  }
  onnx::GraphProto& graph = *model.mutable_graph();
  std::set<std::string> seen;  // every symbolic dim name of the model
  const std::set<std::string> input_dims = InputDimNames(graph);
  BindDims(graph, dims, seen);
  // A typo in a --dim name is reported before any error it may cause.
  if (absl::Status s = UnknownDimBinding(dims, seen, input_dims, path, true); !s.ok()) return s;

  std::unordered_set<std::string> initializers;
  std::unordered_map<std::string, KnownTensor> values;
  for (const onnx::TensorProto& init : graph.initializer()) {
    initializers.insert(init.name());
    if (std::optional<KnownTensor> v = KnownTensorFromProto(init))
      values.emplace(init.name(), *std::move(v));
  }
  // Named symbolic input dims left unbound are reported after inference,
  // all at once with every dim they leave unknown (SymbolicDimsError).
  bool symbolic_inputs = false;
  for (const onnx::ValueInfoProto& input : graph.input()) {
    if (initializers.contains(input.name())) continue;
    if (OnlyNamedSymbolicDims(input.type())) {
      symbolic_inputs = true;
      continue;
    }
    absl::StatusOr<OnnxTensorType> sized = SizeOnnxTensor(input.type(), input.name(), path);
    if (!sized.ok()) return sized.status();
  }

  // Inference runs on a graph whose folded nodes are Constants; restore the
  // original nodes afterwards (the importer plans those). Bindings apply
  // again after inference: they may name dims inference created for
  // data-dependent shapes (NonZero's count becomes `unk__0`).
  SubgraphInitializerValues(graph, values);
  // The fast path; whole-graph rounds below when it cannot finish (their
  // results and error messages are the reference).
  if (InferShapesInWindows(model, values)) {
    if (absl::Status s = UnknownDimBinding(dims, seen, input_dims, path, false); !s.ok()) return s;
    return SymbolicDimsError(graph, {}, path);
  }
  google::protobuf::RepeatedPtrField<onnx::NodeProto> original = graph.node();
  absl::Status status;
  do {
    do {
      status = RunShapeInference(model, path);
    } while (status.ok() && FoldPass(graph, DefaultOpset(model), values));
  } while (status.ok() && BindDims(graph, dims, seen));
  // Subgraph types live inside the nodes: keep them with the original nodes.
  onnx::GraphProto restored;
  *restored.mutable_node() = std::move(original);
  CopySubgraphTypes(graph, restored);
  graph.mutable_node()->Swap(restored.mutable_node());
  if (!status.ok()) {
    // Inference may fail on symbolic dims: name the inputs that would fix them.
    if (symbolic_inputs) return SymbolicDimsError(graph, {}, path);
    if (dims.empty()) return status;
    // The bindings are the likely cause (a length the model's fixed parts
    // do not accept): say which ones were in force.
    std::string bound;
    for (const auto& [name, value] : dims) bound += fmt::format(" --dim {}={}", name, value);
    return absl::Status(status.code(),
                        fmt::format("{}; the model may not allow the dims bound with{}",
                                    std::string(status.message()), bound));
  }
  if (absl::Status s = UnknownDimBinding(dims, seen, input_dims, path, false); !s.ok()) return s;
  std::unordered_set<std::string> known_values;
  for (const auto& [name, value] : values) known_values.insert(name);
  return SymbolicDimsError(graph, known_values, path);
}

}  // namespace memplan
