#include "io/onnx_importer.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "io/onnx_alias.h"
#include "io/onnx_cost.h"
#include "io/onnx_model.h"
#include "io/onnx_shapes.h"
#include "ir/program_builder.h"
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

std::string Opcode(const onnx::NodeProto& node) {
  return node.domain().empty() ? "onnx." + node.op_type()
                               : fmt::format("onnx.{}.{}", node.domain(), node.op_type());
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

class ProgramFromOnnx {
 public:
  ProgramFromOnnx(const onnx::ModelProto& model, std::string_view path)
      : graph_(model.graph()),
        opset_(DefaultOpset(model)),
        path_(path),
        builder_(graph_.name()),
        entry_(builder_.AddComputation(graph_.name().empty() ? "main" : graph_.name())) {
    builder_.SetEntry(entry_);
  }

  absl::StatusOr<Program> Build() && {
    CollectTypes();
    for (auto step : {&ProgramFromOnnx::AddParams, &ProgramFromOnnx::AddInitializers,
                      &ProgramFromOnnx::AddNodes}) {
      if (absl::Status s = (this->*step)(); !s.ok()) return s;
    }
    AddReturn();
    Program program = std::move(builder_).Finish();
    program.source = std::string(path_);
    return program;
  }

 private:
  struct Tensor {
    ValueId value = kNoId;
    bool constant = false;
    OnnxTensorType type;
  };

  absl::Status Error(std::string_view message) const { return OnnxError(path_, message); }

  // Inferred types by tensor name; the first fully static declaration wins.
  void CollectTypes() {
    auto note = [this](const onnx::ValueInfoProto& info) {
      if (!info.has_type()) return;
      auto [it, inserted] = types_.emplace(info.name(), &info.type());
      if (!inserted && !HasStaticShape(it->second) && HasStaticShape(&info.type())) {
        it->second = &info.type();
      }
    };
    for (const auto& info : graph_.input()) note(info);
    for (const auto& info : graph_.value_info()) note(info);
    for (const auto& info : graph_.output()) note(info);
    for (const auto& node : graph_.node()) {
      for (const std::string& input : node.input()) read_.insert(input);
    }
    for (const auto& output : graph_.output()) read_.insert(output.name());
  }

  absl::Status AddParams() {
    std::unordered_set<std::string> initializers;
    for (const auto& init : graph_.initializer()) initializers.insert(init.name());
    for (const onnx::ValueInfoProto& input : graph_.input()) {
      if (initializers.contains(input.name())) continue;  // IR < 4 lists weights as inputs
      absl::StatusOr<OnnxTensorType> type = SizeOnnxTensor(input.type(), input.name(), path_);
      if (!type.ok()) return type.status();
      const ValueId v = builder_.AddParam(entry_, input.name(), type->bytes, type->type);
      builder_.value(v).lifetime = Lifetime::kExternal;
      tensors_.emplace(input.name(), Tensor{v, false, *std::move(type)});
    }
    return absl::OkStatus();
  }

  absl::Status AddInitializers() {
    for (const onnx::TensorProto& init : graph_.initializer()) {
      absl::StatusOr<OnnxTensorType> type = SizeOnnxInitializer(init, path_);
      if (!type.ok()) return type.status();
      // Weights are entry parameters of the constant lifetime: uploaded once
      // before the run, so they take no step of the schedule (and are the
      // candidates for a cross-program prefetch).
      const ValueId v = builder_.AddParam(entry_, init.name(), type->bytes, type->type);
      builder_.value(v).lifetime = Lifetime::kConstant;
      tensors_.emplace(init.name(), Tensor{v, true, *std::move(type)});
    }
    return absl::OkStatus();
  }

  absl::Status AddNodes() {
    for (int i = 0; i < graph_.node_size(); ++i) {
      if (absl::Status s = AddNode(graph_.node(i), i); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  absl::Status AddNode(const onnx::NodeProto& node, int index) {
    const std::string label = OnnxNodeLabel(node, index);
    std::vector<ValueId> operands;
    std::vector<const OnnxTensorType*> input_types;
    bool all_constant = true;
    for (const std::string& input : node.input()) {
      if (input.empty()) {  // omitted optional input
        input_types.push_back(nullptr);
        continue;
      }
      const Tensor& tensor = tensors_.at(input);  // ReadOnnxModel checked the dataflow
      operands.push_back(tensor.value);
      input_types.push_back(&tensor.type);
      all_constant = all_constant && tensor.constant;
    }
    const bool constant = ComputesConstant(node, all_constant);
    const OpId op = builder_.AddOp(entry_, Opcode(node), std::move(operands));
    if (!node.name().empty()) {
      AttrValue name;
      name.kind = AttrValue::Kind::kString;
      name.s = node.name();
      builder_.op(op).attributes.push_back(Attribute{"name", std::move(name)});
    }
    std::vector<const OnnxTensorType*> output_types;
    for (const std::string& output : node.output()) {
      output_types.push_back(nullptr);
      if (output.empty()) continue;  // omitted optional output
      auto type_it = types_.find(output);
      const onnx::TypeProto* type = type_it == types_.end() ? nullptr : type_it->second;
      if (!read_.contains(output) && !HasStaticShape(type)) continue;  // dead and unsized
      if (type == nullptr) {
        const bool has_schema =
            onnx::OpSchemaRegistry::Schema(node.op_type(), opset_, node.domain());
        return Error(fmt::format("{}: output '{}' has no inferred type{}", label, output,
                                 has_schema ? ""
                                            : " (the op is not in libonnx's schema registry; "
                                              "give its outputs shapes in value_info)"));
      }
      absl::StatusOr<OnnxTensorType> sized = SizeOnnxTensor(*type, output, path_);
      if (!sized.ok()) return sized.status();
      const ValueId v = builder_.AddResult(op, output, sized->bytes, sized->type);
      if (constant) builder_.value(v).lifetime = Lifetime::kConstant;
      output_types.back() =
          &tensors_.emplace(output, Tensor{v, constant, *std::move(sized)}).first->second.type;
    }
    builder_.op(op).cost = OnnxNodeCost(node, input_types, output_types);
    return absl::OkStatus();
  }

  void AddReturn() {
    std::vector<ValueId> results;
    for (const onnx::ValueInfoProto& output : graph_.output()) {
      const ValueId v = tensors_.at(output.name()).value;
      Value& value = builder_.value(v);
      // A returned graph input is already external; a returned initializer stays constant.
      if (value.defining_op != kNoId) value.lifetime = Lifetime::kExternal;
      results.push_back(v);
    }
    builder_.SetReturn(entry_, std::move(results));
  }

  const onnx::GraphProto& graph_;
  const int opset_;
  std::string_view path_;
  ProgramBuilder builder_;
  const ComputationId entry_;
  std::unordered_map<std::string, const onnx::TypeProto*> types_;
  std::unordered_set<std::string> read_;  // tensors some node or the graph output reads
  std::unordered_map<std::string, Tensor> tensors_;
};

}  // namespace

absl::StatusOr<Program> ImportOnnx(const std::string& path, const OnnxImportOptions& options) {
  absl::StatusOr<onnx::ModelProto> model = ReadOnnxModel(path);
  if (!model.ok()) return model.status();
  if (absl::Status s = InferOnnxShapes(*model, options.dims, path); !s.ok()) return s;
  absl::StatusOr<Program> program = ProgramFromOnnx(*model, path).Build();
  if (!program.ok()) return program.status();
  if (options.alias) AssignOnnxAliases(*program);
  if (absl::Status s = ValidateProgram(*program, path); !s.ok()) return s;
  return program;
}

}  // namespace memplan
