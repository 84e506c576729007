// Facts about ONNX graphs that hold subgraphs (If branches, Loop and Scan
// bodies), for the importer's lowering of control flow (io/onnx/control_flow.cc).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "onnx/onnx_pb.h"

namespace memplan {

// The tensors `graph` reads from enclosing graphs (outer-scope captures): the
// names its nodes read, its nested subgraphs capture, or its outputs return
// that no input, initializer or node of `graph` defines. In order of first
// reference (node by node, nested captures at their node, then the outputs),
// each once, so the importer's operand order is deterministic.
// Example: body { y = Add(x, w); z = If(c){then: Mul(y, v)}; output z } with
// inputs x -> {w, c, v}.
std::vector<std::string> OnnxCaptures(const onnx::GraphProto& graph);

// For each tensor `graph` reads, the index of the last node that reads it,
// directly or through a capture of one of its subgraphs; graph outputs map
// to node_size() (read after every node).
std::unordered_map<std::string, int> OnnxLastReads(const onnx::GraphProto& graph);

// The graph attribute `name` of `node`, or nullptr.
const onnx::GraphProto* OnnxSubgraph(const onnx::NodeProto& node, const std::string& name);

// How often `node` reads `tensor`: as an input and as a capture of each of
// its subgraphs.
int OnnxReadCount(const onnx::NodeProto& node, const std::string& tensor);

}  // namespace memplan
