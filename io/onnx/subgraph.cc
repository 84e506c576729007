#include "io/onnx/subgraph.h"

#include <algorithm>
#include <unordered_set>

namespace memplan {

std::vector<std::string> OnnxCaptures(const onnx::GraphProto& graph) {
  std::unordered_set<std::string> local;
  for (const auto& input : graph.input()) local.insert(input.name());
  for (const auto& init : graph.initializer()) local.insert(init.name());
  for (const auto& node : graph.node()) {
    for (const std::string& output : node.output()) local.insert(output);
  }
  std::vector<std::string> captures;
  std::unordered_set<std::string> seen;
  auto note = [&](const std::string& name) {
    if (!name.empty() && !local.contains(name) && seen.insert(name).second)
      captures.push_back(name);
  };
  for (const auto& node : graph.node()) {
    for (const std::string& input : node.input()) note(input);
    for (const auto& attr : node.attribute()) {
      if (!attr.has_g()) continue;
      for (const std::string& inner : OnnxCaptures(attr.g())) note(inner);
    }
  }
  for (const auto& output : graph.output()) note(output.name());
  return captures;
}

std::unordered_map<std::string, int> OnnxLastReads(const onnx::GraphProto& graph) {
  std::unordered_map<std::string, int> last;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    for (const std::string& input : node.input()) {
      if (!input.empty()) last[input] = i;
    }
    for (const auto& attr : node.attribute()) {
      if (!attr.has_g()) continue;
      for (const std::string& inner : OnnxCaptures(attr.g())) last[inner] = i;
    }
  }
  for (const auto& output : graph.output()) last[output.name()] = graph.node_size();
  return last;
}

const onnx::GraphProto* OnnxSubgraph(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name && attr.has_g()) return &attr.g();
  }
  return nullptr;
}

int OnnxReadCount(const onnx::NodeProto& node, const std::string& tensor) {
  int count = static_cast<int>(std::count(node.input().begin(), node.input().end(), tensor));
  for (const auto& attr : node.attribute()) {
    if (!attr.has_g()) continue;
    const std::vector<std::string> captures = OnnxCaptures(attr.g());
    count += static_cast<int>(std::count(captures.begin(), captures.end(), tensor));
  }
  return count;
}

}  // namespace memplan
