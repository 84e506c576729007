#include "io/onnx_shapes.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "fmt/format.h"
#include "fmt/ranges.h"
#include "io/onnx_child_process.h"
#include "io/onnx_dtype.h"
#include "io/onnx_fold.h"
#include "io/onnx_model.h"
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
  return changed;
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// Runs ONNX shape inference on `model` in a child process (see
// onnx_child_process.h) and copies the inferred value_info and graph output
// types back into `model`.
absl::Status RunShapeInference(onnx::ModelProto& model, std::string_view path) {
  absl::StatusOr<std::string> reply = RunInChildProcess([&model]() -> std::string {
    try {
      const onnx::ShapeInferenceOptions options(/*check_type_val=*/true, /*strict_mode_val=*/1,
                                                /*data_prop_val=*/false);
      onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
      return "E" + std::string(e.what());
    }
    onnx::GraphProto types;
    *types.mutable_value_info() = model.graph().value_info();
    *types.mutable_output() = model.graph().output();
    return "O" + types.SerializeAsString();
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
    return OnnxError(path, fmt::format("ONNX shape inference failed: {}",
                                       TrimRight(std::string_view(*reply).substr(1))));
  }
  onnx::GraphProto types;
  if (reply->empty() ||
      !types.ParseFromArray(reply->data() + 1, static_cast<int>(reply->size() - 1))) {
    return crashed("no result");
  }
  onnx::GraphProto& graph = *model.mutable_graph();
  *graph.mutable_value_info() = std::move(*types.mutable_value_info());
  for (int i = 0; i < graph.output_size() && i < types.output_size(); ++i) {
    *graph.mutable_output(i) = std::move(*types.mutable_output(i));
  }
  return absl::OkStatus();
}

// Static dims of every tensor whose shape is fully known so far.
std::unordered_map<std::string, Dims> KnownDims(const onnx::GraphProto& graph) {
  std::unordered_map<std::string, Dims> known;
  auto note = [&](const onnx::ValueInfoProto& info) {
    if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape()) return;
    Dims dims;
    for (const auto& dim : info.type().tensor_type().shape().dim()) {
      if (!dim.has_dim_value()) return;
      dims.push_back(dim.dim_value());
    }
    known.emplace(info.name(), std::move(dims));
  };
  for (const auto& info : graph.input()) note(info);
  for (const auto& info : graph.value_info()) note(info);
  for (const auto& info : graph.output()) note(info);
  for (const auto& init : graph.initializer()) {
    known.emplace(init.name(), Dims(init.dims().begin(), init.dims().end()));
  }
  return known;
}

onnx::NodeProto ConstantNode(const onnx::NodeProto& node, const IntTensor& value) {
  onnx::NodeProto constant;
  constant.set_name(node.name());
  constant.set_op_type("Constant");
  constant.add_output(node.output(0));
  onnx::AttributeProto* attr = constant.add_attribute();
  attr->set_name("value");
  attr->set_type(onnx::AttributeProto::TENSOR);
  *attr->mutable_t() = IntTensorToProto(value);
  return constant;
}

// One folding pass in graph order over `graph` (the copy being inferred):
// records newly known integer values in `values` and replaces folded nodes
// by Constant nodes. Returns whether any node was replaced.
bool FoldPass(onnx::GraphProto& graph, int opset, std::vector<bool>& folded,
              std::unordered_map<std::string, IntTensor>& values) {
  const std::unordered_map<std::string, Dims> dims = KnownDims(graph);
  bool replaced = false;
  for (int i = 0; i < graph.node_size(); ++i) {
    onnx::NodeProto& node = *graph.mutable_node(i);
    if (folded[i] || node.output_size() != 1 || node.output(0).empty()) continue;
    std::vector<FoldInput> inputs(node.input_size());
    for (int j = 0; j < node.input_size(); ++j) {
      auto v = values.find(node.input(j));
      if (v != values.end()) inputs[j].value = &v->second;
      auto d = dims.find(node.input(j));
      if (d != dims.end()) inputs[j].dims = &d->second;
    }
    std::optional<IntTensor> value = FoldIntNode(node, opset, inputs);
    if (!value) continue;
    folded[i] = true;
    if (node.op_type() != "Constant") {
      node = ConstantNode(node, *value);
      replaced = true;
    }
    values.insert_or_assign(node.output(0), *std::move(value));
  }
  return replaced;
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

// The error for the first binding in `dims` that names none of the symbolic
// dims in `seen` (most likely a typo), or OK. With `before_inference`, names
// inference may still create are not checked yet.
absl::Status UnknownDimBinding(const OnnxDimBindings& dims, const std::set<std::string>& seen,
                               std::string_view path, bool before_inference) {
  for (const auto& [name, value] : dims) {
    if (seen.contains(name) || (before_inference && InferenceDimName(name))) continue;
    std::string names;
    for (const std::string& s : seen) names += (names.empty() ? "" : ", ") + s;
    return OnnxError(path, fmt::format("--dim {}={}: the model has no symbolic dim '{}' ({})", name,
                                       value, name,
                                       seen.empty() ? "it has none"
                                                    : "its symbolic dims: " + names));
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
  BindDims(graph, dims, seen);
  // A typo in a --dim name is reported before any error it may cause.
  if (absl::Status s = UnknownDimBinding(dims, seen, path, true); !s.ok()) return s;

  std::unordered_set<std::string> initializers;
  std::unordered_map<std::string, IntTensor> values;
  for (const onnx::TensorProto& init : graph.initializer()) {
    initializers.insert(init.name());
    if (std::optional<IntTensor> v = IntTensorFromProto(init))
      values.emplace(init.name(), *std::move(v));
  }
  for (const onnx::ValueInfoProto& input : graph.input()) {
    if (initializers.contains(input.name())) continue;
    absl::StatusOr<OnnxTensorType> sized = SizeOnnxTensor(input.type(), input.name(), path);
    if (!sized.ok()) return sized.status();
  }

  // Inference runs on a graph whose folded nodes are Constants; restore the
  // original nodes afterwards (the importer plans those). Bindings apply
  // again after inference: they may name dims inference created for
  // data-dependent shapes (NonZero's count becomes `unk__0`).
  google::protobuf::RepeatedPtrField<onnx::NodeProto> original = graph.node();
  std::vector<bool> folded(graph.node_size(), false);
  absl::Status status;
  do {
    do {
      status = RunShapeInference(model, path);
    } while (status.ok() && FoldPass(graph, DefaultOpset(model), folded, values));
  } while (status.ok() && BindDims(graph, dims, seen));
  graph.mutable_node()->Swap(&original);
  if (!status.ok()) return status;
  return UnknownDimBinding(dims, seen, path, false);
}

}  // namespace memplan
