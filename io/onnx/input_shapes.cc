#include "io/onnx/input_shapes.h"

#include <algorithm>
#include <unordered_set>

#include "fmt/format.h"
#include "fmt/ranges.h"
#include "io/onnx/model.h"

namespace memplan {
namespace {

std::string DeclaredShape(const onnx::ValueInfoProto& input) {
  std::vector<std::string> dims;
  for (const auto& dim : input.type().tensor_type().shape().dim()) {
    dims.push_back(dim.has_dim_value() ? std::to_string(dim.dim_value()) : dim.dim_param());
  }
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

void SetDims(onnx::ValueInfoProto& input, const std::vector<std::int64_t>& dims) {
  onnx::TensorShapeProto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->clear_dim();
  for (std::int64_t d : dims) shape->add_dim()->set_dim_value(d);
}

void DropShape(onnx::ValueInfoProto& info) {
  if (info.type().has_tensor_type()) info.mutable_type()->mutable_tensor_type()->clear_shape();
}

}  // namespace

std::string FormatInputShape(const std::vector<std::int64_t>& dims) {
  return fmt::format("{}", fmt::join(dims, "x"));
}

absl::Status SetOnnxInputShapes(onnx::GraphProto& graph, const OnnxInputShapes& given,
                                std::string_view path) {
  if (given.empty()) return absl::OkStatus();
  std::unordered_set<std::string> initializers;
  for (const onnx::TensorProto& init : graph.initializer()) initializers.insert(init.name());
  std::vector<onnx::ValueInfoProto*> inputs;
  for (onnx::ValueInfoProto& input : *graph.mutable_input()) {
    if (!initializers.contains(input.name()) && input.type().has_tensor_type()) inputs.push_back(&input);
  }
  for (const auto& [name, dims] : given.shapes) {
    const std::string flag = fmt::format("--input-shape {}={}", name, FormatInputShape(dims));
    auto it = std::find_if(inputs.begin(), inputs.end(),
                           [&](const onnx::ValueInfoProto* input) { return input->name() == name; });
    if (it == inputs.end()) {
      std::vector<std::string> names;
      for (const onnx::ValueInfoProto* input : inputs) names.push_back(input->name());
      return OnnxError(path, fmt::format("{}: the model has no input '{}' ({})", flag, name,
                                         names.empty() ? "it has no inputs"
                                                       : fmt::format("its inputs: {}",
                                                                     fmt::join(names, ", "))));
    }
    const onnx::ValueInfoProto& input = **it;
    const int rank = input.type().tensor_type().shape().dim_size();
    if (input.type().tensor_type().has_shape() && rank != static_cast<int>(dims.size())) {
      return OnnxError(path, fmt::format("{}: input '{}' has rank {} ({}), the shape gives {} dims",
                                         flag, name, rank, DeclaredShape(input), dims.size()));
    }
  }
  for (onnx::ValueInfoProto* input : inputs) {
    auto shape = given.shapes.find(input->name());
    if (shape != given.shapes.end()) {
      SetDims(*input, shape->second);
    } else if (given.batch && input->type().tensor_type().shape().dim_size() > 0) {
      input->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(
          *given.batch);
    }
  }
  for (onnx::ValueInfoProto& info : *graph.mutable_value_info()) DropShape(info);
  for (onnx::ValueInfoProto& info : *graph.mutable_output()) DropShape(info);
  return absl::OkStatus();
}

}  // namespace memplan
