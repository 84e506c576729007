#include "io/onnx/model.h"

#include <algorithm>
#include <exception>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "io/file_io.h"
#include "io/onnx/wire_damage.h"
#include "ir/diagnostic.h"
#include "ir/text_syntax.h"
#include "onnx/defs/schema.h"

namespace memplan {
namespace {

// Domains whose ops all live in libonnx's registry, with their opset range.
const std::unordered_map<std::string, std::pair<int, int>>& StandardDomains() {
  return onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
}

std::string Qualified(const onnx::NodeProto& node) {
  return node.domain().empty() ? node.op_type() : node.domain() + "." + node.op_type();
}

bool HasGraphAttribute(const onnx::NodeProto& node) {
  for (const onnx::AttributeProto& attr : node.attribute()) {
    if (attr.type() == onnx::AttributeProto::GRAPH || attr.type() == onnx::AttributeProto::GRAPHS ||
        attr.has_g() || attr.graphs_size() > 0) {
      return true;
    }
  }
  return false;
}

// Opset imports by domain ("ai.onnx" already normalized to "").
absl::StatusOr<std::map<std::string, int>> CheckOpsets(const onnx::ModelProto& model,
                                                       std::string_view path) {
  std::map<std::string, int> opsets;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    const std::string& domain = opset.domain();
    const std::string shown = domain.empty() ? "ai.onnx" : domain;
    if (!opsets.emplace(domain, static_cast<int>(opset.version())).second) {
      return OnnxError(path, fmt::format("opset of domain '{}' is imported twice", shown));
    }
    auto range = StandardDomains().find(domain);
    if (range != StandardDomains().end() &&
        (opset.version() < range->second.first || opset.version() > range->second.second)) {
      return OnnxError(
          path, fmt::format("opset {} of domain '{}' is not known to the installed "
                            "libonnx (it knows versions {} to {})",
                            opset.version(), shown, range->second.first, range->second.second));
    }
  }
  if (!opsets.contains("")) {
    return OnnxError(path,
                     "not an ONNX model: it imports no default-domain (ai.onnx) opset "
                     "(corrupt, truncated or another format?)");
  }
  return opsets;
}

absl::Status CheckNode(const onnx::NodeProto& node, const std::string& label,
                       const std::map<std::string, int>& opsets,
                       const std::set<std::pair<std::string, std::string>>& functions,
                       std::string_view path) {
  auto fail = [&](std::string_view message) {
    return OnnxError(path, fmt::format("{}: {}", label, message));
  };
  const bool control_flow = IsOnnxControlFlow(node);
  if (control_flow && opsets.at("") < kMinControlFlowOpset) {
    return fail(
        fmt::format("control flow (If, Loop, Scan) needs opset {} or newer; the model "
                    "imports opset {}",
                    kMinControlFlowOpset, opsets.at("")));
  }
  if (!control_flow && HasGraphAttribute(node)) {
    return fail("ops with subgraphs other than If, Loop and Scan are not supported");
  }
  auto opset = opsets.find(node.domain());
  if (opset == opsets.end()) {
    return fail(fmt::format("domain '{}' is not imported by the model", node.domain()));
  }
  if (functions.contains({node.domain(), node.op_type()})) {
    return fail("model-local functions are not supported yet");
  }
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), opset->second, node.domain());
  if (schema == nullptr) {
    if (!StandardDomains().contains(node.domain())) return absl::OkStatus();  // custom op
    return fail(fmt::format("unknown op '{}': not in opset {} of the installed libonnx",
                            Qualified(node), opset->second));
  }
  if (schema->Deprecated()) {
    return fail(fmt::format("op '{}' is deprecated in opset {}", Qualified(node), opset->second));
  }
  try {
    schema->Verify(node);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return absl::OkStatus();
}

// CheckNode on every node of `graph` and, depth first, of its subgraphs.
absl::Status CheckNodes(const onnx::GraphProto& graph, const std::string& scope,
                        const std::map<std::string, int>& opsets,
                        const std::set<std::pair<std::string, std::string>>& functions,
                        std::string_view path) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    const std::string label = OnnxNodeLabel(node, i) + scope;
    if (absl::Status s = CheckNode(node, label, opsets, functions, path); !s.ok()) return s;
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (!attr.has_g()) continue;
      const std::string inner = fmt::format(" in the {} of {}", attr.name(), label);
      if (absl::Status s = CheckNodes(attr.g(), inner, opsets, functions, path); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

// Names become value, op and computation names, which must be UTF-8 text
// without NUL bytes (ONNX requires UTF-8 too, but protobuf's proto2 parser
// does not check). Invalid names are referred to by position, as printing
// them would be garbage. Subgraphs are checked too; `scope` says where a
// nested graph is (" in the body of node #3").
absl::Status CheckUtf8(const onnx::GraphProto& graph, std::string_view path,
                       const std::string& scope = "") {
  auto check = [&](std::string_view text, auto describe) -> absl::Status {
    if (!FirstInvalidUtf8(text) && text.find('\0') == std::string_view::npos)
      return absl::OkStatus();
    return OnnxError(path,
                     describe() + scope + " is not valid UTF-8 text (or contains a NUL byte)");
  };
  if (absl::Status s = check(graph.name(), [] { return std::string("the graph name"); }); !s.ok())
    return s;
  auto list = [&](const auto& infos, std::string_view what) -> absl::Status {
    for (int i = 0; i < infos.size(); ++i) {
      absl::Status s =
          check(infos.Get(i).name(), [&] { return fmt::format("the name of {} #{}", what, i); });
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  };
  for (absl::Status s :
       {list(graph.input(), "graph input"), list(graph.initializer(), "initializer"),
        list(graph.output(), "graph output")}) {
    if (!s.ok()) return s;
  }
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    std::vector<std::pair<std::string_view, std::string>> fields = {
        {node.name(), "name"}, {node.op_type(), "op type"}, {node.domain(), "domain"}};
    for (int j = 0; j < node.input_size(); ++j)
      fields.emplace_back(node.input(j), fmt::format("input {}", j));
    for (int j = 0; j < node.output_size(); ++j)
      fields.emplace_back(node.output(j), fmt::format("output {}", j));
    for (const auto& entry : fields) {  // no structured binding: clang 14 cannot capture one
      const std::string& field = entry.second;
      absl::Status s = check(entry.first, [&] { return fmt::format("node #{}: its {}", i, field); });
      if (!s.ok()) return s;
    }
    for (int j = 0; j < node.attribute_size(); ++j) {
      if (!node.attribute(j).has_g()) continue;
      const std::string inner =
          fmt::format(" in subgraph attribute #{} of node #{}{}", j, i, scope);
      if (absl::Status s = CheckUtf8(node.attribute(j).g(), path, inner); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

// Single static assignment in graph order: every tensor defined once (graph
// input, initializer or node output) before any node reads it; graph outputs
// defined somewhere. An initializer may share its name with a graph input
// (IR < 4 lists weights as inputs; later IRs make it the input's default).
// A subgraph also sees the tensors of its enclosing graphs defined before
// its node (`outer`), but may not redefine them; `scope` names where it is.
absl::Status CheckDataflow(const onnx::GraphProto& graph, std::string_view path,
                           const std::set<std::string>& outer = {}, const std::string& scope = "") {
  const std::string where = scope.empty() ? "graph" : "subgraph";
  std::set<std::string> defined;
  auto define = [&](const std::string& name) {
    return !outer.contains(name) && defined.insert(name).second;
  };
  auto visible = [&](const std::string& name) {
    return defined.contains(name) || outer.contains(name);
  };
  for (int i = 0; i < graph.input_size(); ++i) {
    const std::string& name = graph.input(i).name();
    if (name.empty())
      return OnnxError(path, fmt::format("{} input #{}{} has an empty name", where, i, scope));
    if (!define(name)) {
      return OnnxError(path, fmt::format("{} input '{}'{} {}", where, name, scope,
                                         outer.contains(name)
                                             ? "reuses the name of a tensor of an enclosing graph"
                                             : "is listed twice"));
    }
  }
  std::set<std::string> initializers;
  for (int i = 0; i < graph.initializer_size(); ++i) {
    const std::string& name = graph.initializer(i).name();
    if (name.empty())
      return OnnxError(path, fmt::format("initializer #{}{} has an empty name", i, scope));
    if (!initializers.insert(name).second || (!defined.contains(name) && !define(name))) {
      return OnnxError(path, fmt::format("initializer '{}'{} is defined twice", name, scope));
    }
  }
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    const std::string label = OnnxNodeLabel(node, i) + scope;
    for (const std::string& input : node.input()) {
      if (!input.empty() && !visible(input)) {
        return OnnxError(path,
                         fmt::format("{}: reads tensor '{}', which no graph input, initializer "
                                     "or earlier node defines",
                                     label, input));
      }
    }
    if (std::any_of(node.attribute().begin(), node.attribute().end(),
                    [](const onnx::AttributeProto& a) { return a.has_g(); })) {
      std::set<std::string> inner_outer = outer;
      inner_outer.insert(defined.begin(), defined.end());
      for (const onnx::AttributeProto& attr : node.attribute()) {
        if (!attr.has_g()) continue;
        const std::string inner = fmt::format(" in the {} of {}", attr.name(), label);
        if (absl::Status s = CheckDataflow(attr.g(), path, inner_outer, inner); !s.ok()) return s;
      }
    }
    for (const std::string& output : node.output()) {
      if (!output.empty() && !define(output)) {
        return OnnxError(path, fmt::format("{}: output '{}' is already defined", label, output));
      }
    }
  }
  for (const onnx::ValueInfoProto& output : graph.output()) {
    if (!visible(output.name())) {
      return OnnxError(path, fmt::format("{} output '{}'{} is not defined by any node, initializer "
                                         "or graph input",
                                         where, output.name(), scope));
    }
  }
  return absl::OkStatus();
}

// Rewrites the domain alias "ai.onnx" to "" in `graph`'s nodes and subgraphs.
void NormalizeDomains(onnx::GraphProto& graph) {
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    if (node.domain() == "ai.onnx") node.clear_domain();
    for (onnx::AttributeProto& attr : *node.mutable_attribute()) {
      if (attr.has_g()) NormalizeDomains(*attr.mutable_g());
    }
  }
}

}  // namespace

absl::Status OnnxError(std::string_view path, std::string_view message) {
  return LocatedError(path, SourceLocation{}, message);
}

std::string OnnxNodeLabel(const onnx::NodeProto& node, int index) {
  const std::string op = Qualified(node);
  if (node.name().empty()) return fmt::format("node #{} ({})", index, op);
  return fmt::format("node '{}' ({})", node.name(), op);
}

bool IsOnnxControlFlow(const onnx::NodeProto& node) {
  return node.domain().empty() &&
         (node.op_type() == "If" || node.op_type() == "Loop" || node.op_type() == "Scan");
}

int DefaultOpset(const onnx::ModelProto& model) {
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    if (opset.domain().empty()) return static_cast<int>(opset.version());
  }
  return 0;
}

absl::StatusOr<onnx::ModelProto> ReadOnnxModel(const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  if (bytes->empty()) return OnnxError(path, "not an ONNX model: the file is empty");
  onnx::ModelProto model;
  if (!model.ParseFromString(*bytes)) {
    // Protobuf does not say where: the wire format walk does.
    if (const std::optional<WireDamage> damage = FindWireDamage(*bytes)) {
      return OnnxError(path, fmt::format("not an ONNX model: protobuf parsing failed at byte {} "
                                         "of {}: {} (corrupt, truncated or another format?)",
                                         damage->byte, bytes->size(), damage->what));
    }
    return OnnxError(path,
                     "not an ONNX model: protobuf parsing failed (corrupt, truncated or "
                     "another format?)");
  }
  if (model.ir_version() <= 0) {
    return OnnxError(path,
                     "not an ONNX model: no ir_version (corrupt, truncated or another format?)");
  }
  if (model.ir_version() < 3) {
    return OnnxError(path, fmt::format("ir_version {} predates opset imports (IR version 3); "
                                       "re-export the model with a newer ONNX",
                                       model.ir_version()));
  }
  if (!model.has_graph() || model.graph().node_size() == 0) {
    return OnnxError(path,
                     "not an ONNX model: no graph nodes (corrupt, truncated or another format?)");
  }
  for (onnx::OperatorSetIdProto& opset : *model.mutable_opset_import()) {
    if (opset.domain() == "ai.onnx") opset.clear_domain();
  }
  NormalizeDomains(*model.mutable_graph());
  if (absl::Status status = CheckUtf8(model.graph(), path); !status.ok()) return status;
  absl::StatusOr<std::map<std::string, int>> opsets = CheckOpsets(model, path);
  if (!opsets.ok()) return opsets.status();
  std::set<std::pair<std::string, std::string>> functions;
  for (const onnx::FunctionProto& f : model.functions()) functions.emplace(f.domain(), f.name());
  if (absl::Status status = CheckNodes(model.graph(), "", *opsets, functions, path); !status.ok())
    return status;
  if (absl::Status status = CheckDataflow(model.graph(), path); !status.ok()) return status;
  return model;
}

}  // namespace memplan
