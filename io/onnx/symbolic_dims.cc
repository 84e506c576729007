#include "io/onnx/symbolic_dims.h"

#include <set>
#include <unordered_map>
#include <vector>

#include "fmt/format.h"
#include "io/onnx/model.h"

namespace memplan {
namespace {

// Why some dims are unknown: a symbolic input dim or a data-dependent node.
struct Source {
  std::string text;  // "'batch' (input 'x' dim 0)" or "node 'nz' (NonZero) (output 'z' dim 1 ...)"
  std::vector<std::string> binds;  // the dim names --dim takes
  bool from_input = true;
};

const onnx::TensorShapeProto* ShapeOf(const onnx::ValueInfoProto& info) {
  if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape()) return nullptr;
  return &info.type().tensor_type().shape();
}

int UnknownDims(const onnx::TensorShapeProto& shape) {
  int n = 0;
  for (const auto& dim : shape.dim()) n += dim.has_dim_value() ? 0 : 1;
  return n;
}

}  // namespace

absl::Status SymbolicDimsError(const onnx::GraphProto& graph,
                               const std::unordered_set<std::string>& known_values,
                               std::string_view path) {
  // Every typed tensor once; a static declaration wins over a symbolic one.
  std::unordered_map<std::string, const onnx::TensorShapeProto*> shapes;
  auto note = [&](const onnx::ValueInfoProto& info) {
    const onnx::TensorShapeProto* shape = ShapeOf(info);
    if (shape == nullptr) return;
    auto [it, inserted] = shapes.emplace(info.name(), shape);
    if (!inserted && UnknownDims(*shape) < UnknownDims(*it->second)) it->second = shape;
  };
  for (const auto& info : graph.input()) note(info);
  for (const auto& info : graph.value_info()) note(info);
  for (const auto& info : graph.output()) note(info);
  int unknown = 0;
  for (const auto& [name, shape] : shapes) unknown += UnknownDims(*shape);
  // A node output that is read but has no shape at all (unknown rank) counts once.
  std::unordered_set<std::string> read;
  for (const auto& node : graph.node()) read.insert(node.input().begin(), node.input().end());
  for (const auto& output : graph.output()) read.insert(output.name());
  std::unordered_set<std::string> shapeless;
  for (const auto& node : graph.node()) {
    for (const std::string& output : node.output()) {
      if (!output.empty() && read.contains(output) && !shapes.contains(output) &&
          !known_values.contains(output) && shapeless.insert(output).second) {
        ++unknown;
      }
    }
  }
  if (unknown == 0) return absl::OkStatus();

  std::vector<Source> sources;
  std::unordered_map<std::string, int> input_dim_source;  // dim name -> source
  std::unordered_map<std::string, std::set<int>> deps;     // tensor -> sources
  std::unordered_set<std::string> initializers;
  for (const auto& init : graph.initializer()) initializers.insert(init.name());
  for (const auto& input : graph.input()) {
    const onnx::TensorShapeProto* shape = ShapeOf(input);
    if (initializers.contains(input.name()) || shape == nullptr) continue;
    std::set<int>& mine = deps[input.name()];
    for (int d = 0; d < shape->dim_size(); ++d) {
      const auto& dim = shape->dim(d);
      if (dim.has_dim_value()) continue;
      const std::string& name = dim.dim_param();
      auto [it, inserted] = input_dim_source.emplace(name, static_cast<int>(sources.size()));
      if (inserted) {
        sources.push_back(Source{
            name.empty() ? fmt::format("an unnamed dim (input '{}' dim {})", input.name(), d)
                         : fmt::format("'{}' (input '{}' dim {})", name, input.name(), d),
            name.empty() ? std::vector<std::string>{} : std::vector<std::string>{name}, true});
      }
      mine.insert(it->second);
    }
  }
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    std::set<int> from_inputs;
    for (const std::string& input : node.input()) {
      auto it = deps.find(input);
      if (it != deps.end()) from_inputs.insert(it->second.begin(), it->second.end());
    }
    int own = -1;  // this node's data source, made on first need
    for (const std::string& output : node.output()) {
      if (output.empty() || known_values.contains(output)) continue;
      auto shape = shapes.find(output);
      const bool unknown_dims = shapeless.contains(output) ||
                                (shape != shapes.end() && UnknownDims(*shape->second) > 0);
      if (!unknown_dims || !from_inputs.empty()) {
        if (!from_inputs.empty()) deps[output] = from_inputs;
        continue;
      }
      // Control flow and custom ops have the importer's own, more precise errors.
      if (!node.domain().empty() || IsOnnxControlFlow(node)) return absl::OkStatus();
      if (own < 0) {
        own = static_cast<int>(sources.size());
        sources.push_back(Source{OnnxNodeLabel(node, i), {}, false});
      }
      if (shape == shapes.end()) {
        sources[own].text += fmt::format(" (output '{}' of unknown rank)", output);
        deps[output] = {own};
        continue;
      }
      // Name every unknown dim of the output, by the name inference gave it.
      Source& source = sources[own];
      std::string dims;
      for (int d = 0; d < shape->second->dim_size(); ++d) {
        const auto& dim = shape->second->dim(d);
        if (dim.has_dim_value()) continue;
        dims += fmt::format("{}dim {}", dims.empty() ? "" : ", ", d);
        if (dim.dim_param().empty()) continue;
        dims += fmt::format(" '{}'", dim.dim_param());
        source.binds.push_back(dim.dim_param());
      }
      source.text += fmt::format(" (output '{}' {})", output, dims);
      deps[output] = {own};
    }
  }

  std::string inputs, data, hint;
  for (const Source& s : sources) {
    std::string& list = s.from_input ? inputs : data;
    list += (list.empty() ? "" : ", ") + s.text;
    for (const std::string& name : s.binds) hint += fmt::format(" --dim {}=VALUE", name);
  }
  std::string causes;
  if (!inputs.empty()) causes = "input dims: " + inputs;
  if (!data.empty()) {
    causes += (causes.empty() ? "" : " and from ") + std::string("data computed at run time by ") +
              data;
  }
  if (causes.empty()) causes = "nothing memplan can trace";
  const bool one_bind = hint.find(" --dim ", 1) == std::string::npos;
  return OnnxError(path, fmt::format("{} tensor dim{} symbolic; {} from {}{}", unknown,
                                     unknown == 1 ? " is" : "s are",
                                     unknown == 1 ? "it follows" : "they follow", causes,
                                     hint.empty() ? ""
                                                  : fmt::format("; bind {} with{}",
                                                                one_bind ? "it" : "them", hint)));
}

}  // namespace memplan
