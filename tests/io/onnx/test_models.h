// Test helper: builds small ONNX models in code, writes them to temp files and
// reads back the importer's errors.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "io/onnx/importer.h"
#include "ir/program.h"
#include "onnx/onnx_pb.h"

namespace memplan::testing {

// The message of importing the ONNX file `path`, which must fail with
// InvalidArgument (records a test failure and returns "" otherwise).
inline std::string ErrorOf(const std::string& path, const OnnxImportOptions& options = {}) {
  absl::StatusOr<Program> program = ImportOnnx(path, options);
  EXPECT_FALSE(program.ok());
  if (program.ok()) return "";
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(program.status().message());
}

// The program importing `path` gives, with aliasing on or off; records a
// test failure and returns an empty Program when the import fails.
inline Program ImportOk(const std::string& path, bool alias = true) {
  OnnxImportOptions options;
  options.alias = alias;
  absl::StatusOr<Program> p = ImportOnnx(path, options);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *std::move(p) : Program{};
}

// The value of `p` called `name`; records a test failure and returns an
// empty Value when there is none.
inline const Value& ValueNamed(const Program& p, std::string_view name) {
  const ValueId id = p.FindValue(name);
  EXPECT_NE(id, kNoId) << name;
  static const Value kMissing;
  return id == kNoId ? kMissing : p.values[id];
}

// A dim of a declared shape: a value (4), a symbolic name ("batch") or unknown ({}).
struct Dim {
  Dim() = default;
  Dim(std::int64_t v) : value(v), has_value(true) {}  // NOLINT: implicit for brevity
  Dim(const char* p) : param(p) {}                    // NOLINT
  std::int64_t value = 0;
  bool has_value = false;
  std::string param;
};

inline void SetTensorType(onnx::TypeProto* type, std::int32_t elem_type,
                          std::initializer_list<Dim> dims) {
  auto* tensor = type->mutable_tensor_type();
  tensor->set_elem_type(elem_type);
  auto* shape = tensor->mutable_shape();
  for (const Dim& d : dims) {
    auto* dim = shape->add_dim();
    if (d.has_value) {
      dim->set_dim_value(d.value);
    } else if (!d.param.empty()) {
      dim->set_dim_param(d.param);
    }
  }
}

struct TempFolder {
  TempFolder()
      : path((std::filesystem::path(::testing::TempDir()) /
              ("memplan_onnx_" + std::to_string(::getpid())))
                 .string()) {
    std::filesystem::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string path;
};

class OnnxModelBuilder {
 public:
  explicit OnnxModelBuilder(int opset = 13, int ir_version = 7) {
    model_.set_ir_version(ir_version);
    model_.set_producer_name("memplan-tests");
    auto* op = model_.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model_.mutable_graph()->set_name("g");
  }

  onnx::ModelProto& model() { return model_; }
  onnx::GraphProto& graph() { return *model_.mutable_graph(); }

  OnnxModelBuilder& Input(const std::string& name, std::int32_t elem_type,
                          std::initializer_list<Dim> dims) {
    auto* vi = graph().add_input();
    vi->set_name(name);
    SetTensorType(vi->mutable_type(), elem_type, dims);
    return *this;
  }
  // A graph output typed by shape inference (elem type only).
  OnnxModelBuilder& Output(const std::string& name,
                           std::int32_t elem_type = onnx::TensorProto::FLOAT) {
    auto* vi = graph().add_output();
    vi->set_name(name);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
    return *this;
  }
  OnnxModelBuilder& ValueInfo(const std::string& name, std::int32_t elem_type,
                              std::initializer_list<Dim> dims) {
    auto* vi = graph().add_value_info();
    vi->set_name(name);
    SetTensorType(vi->mutable_type(), elem_type, dims);
    return *this;
  }
  // A weight whose payload lives in an absent external file (never read).
  OnnxModelBuilder& Weight(const std::string& name, std::vector<std::int64_t> dims,
                           std::int32_t elem_type = onnx::TensorProto::FLOAT) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(elem_type);
    for (std::int64_t d : dims) t->add_dims(d);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* entry = t->add_external_data();
    entry->set_key("location");
    entry->set_value("weights.bin");
    return *this;
  }
  // An INT64 initializer with inline data.
  OnnxModelBuilder& Ints(const std::string& name, std::vector<std::int64_t> values,
                         std::vector<std::int64_t> dims = {-1}) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    if (dims == std::vector<std::int64_t>{-1}) dims = {static_cast<std::int64_t>(values.size())};
    for (std::int64_t d : dims) t->add_dims(d);
    for (std::int64_t v : values) t->add_int64_data(v);
    return *this;
  }
  onnx::NodeProto& Node(const std::string& op_type, std::vector<std::string> inputs,
                        std::vector<std::string> outputs, const std::string& name = "") {
    auto* n = graph().add_node();
    n->set_op_type(op_type);
    n->set_name(name);
    for (auto& i : inputs) n->add_input(i);
    for (auto& o : outputs) n->add_output(o);
    return *n;
  }

  // Serializes the model to a fresh file under the test temp dir.
  std::string Write(const std::string& file_name) const {
    std::string bytes;
    model_.SerializeToString(&bytes);
    return WriteBytes(file_name, bytes);
  }

  // Writes `bytes` to `file_name` in a directory of this test process, removed at exit.
  static std::string WriteBytes(const std::string& file_name, const std::string& bytes) {
    static const TempFolder folder;
    const std::string path = folder.path + "/" + file_name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
    return path;
  }

 private:
  onnx::ModelProto model_;
};

inline void AddIntAttr(onnx::NodeProto& node, const std::string& name, std::int64_t v) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

inline void AddIntsAttr(onnx::NodeProto& node, const std::string& name,
                        std::vector<std::int64_t> v) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (std::int64_t x : v) a->add_ints(x);
}

// A Constant node holding INT64 `values` with `dims` (1-D by default).
inline onnx::NodeProto& AddIntConstant(OnnxModelBuilder& b, const std::string& output,
                                       std::vector<std::int64_t> values,
                                       std::vector<std::int64_t> dims = {-1}) {
  onnx::NodeProto& n = b.Node("Constant", {}, {output});
  auto* a = n.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  a->mutable_t()->set_data_type(onnx::TensorProto::INT64);
  if (dims == std::vector<std::int64_t>{-1}) dims = {static_cast<std::int64_t>(values.size())};
  for (std::int64_t d : dims) a->mutable_t()->add_dims(d);
  for (std::int64_t v : values) a->mutable_t()->add_int64_data(v);
  return n;
}

// Subgraphs (If branches, Loop and Scan bodies), built like a main graph.
class OnnxSubgraphBuilder {
 public:
  explicit OnnxSubgraphBuilder(const std::string& name) { graph_.set_name(name); }
  onnx::GraphProto& graph() { return graph_; }

  OnnxSubgraphBuilder& Input(const std::string& name, std::int32_t elem_type,
                             std::initializer_list<Dim> dims) {
    auto* vi = graph_.add_input();
    vi->set_name(name);
    SetTensorType(vi->mutable_type(), elem_type, dims);
    return *this;
  }
  // An output typed by shape inference (elem type only).
  OnnxSubgraphBuilder& Output(const std::string& name,
                              std::int32_t elem_type = onnx::TensorProto::FLOAT) {
    auto* vi = graph_.add_output();
    vi->set_name(name);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
    return *this;
  }
  onnx::NodeProto& Node(const std::string& op_type, std::vector<std::string> inputs,
                        std::vector<std::string> outputs, const std::string& name = "") {
    auto* n = graph_.add_node();
    n->set_op_type(op_type);
    n->set_name(name);
    for (auto& i : inputs) n->add_input(i);
    for (auto& o : outputs) n->add_output(o);
    return *n;
  }

 private:
  onnx::GraphProto graph_;
};

// Attaches `graph` to `node` as the GRAPH attribute `name` (then_branch, body, ...).
inline void AddGraphAttr(onnx::NodeProto& node, const std::string& name,
                         const onnx::GraphProto& graph) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = graph;
}

}  // namespace memplan::testing
