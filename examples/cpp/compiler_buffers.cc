// The program of docs/tutorials/cpp-api.md: a compiler hands its own graph
// (a list of nodes with output sizes) to memplan, asks whether the
// activations fit a 48 KiB arena, lets memplan reorder the nodes when they
// do not, reads the offsets back, and finally plans with fast memory.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "memplan/memplan.h"

namespace mp = memplan::api;

// The compiler's own graph form: what memplan needs to know of each node.
struct Node {
  std::string opcode;
  std::vector<int> inputs;  // indices of earlier nodes; -1 is the graph input
  std::string output;       // the node's one output tensor
  std::int64_t bytes;
  bool in_place;            // writes its output over inputs[0]
  double flops;
  std::int64_t weight_bytes;  // a constant operand, 0 for none
};

// Two convolution branches over one 16 KiB input, pooled, concatenated and
// classified. Written branch by branch side by side, as a naive lowering
// emits them.
const std::vector<Node> kGraph = {
    {"conv", {-1}, "b1", 32 << 10, false, 2.4e7, 4 << 10},  // 0
    {"conv", {-1}, "b2", 32 << 10, false, 2.4e7, 4 << 10},  // 1
    {"relu", {0}, "b1r", 32 << 10, true, 8e3, 0},           // 2: in place over b1
    {"maxpool", {2}, "p1", 8 << 10, false, 8e3, 0},         // 3
    {"maxpool", {1}, "p2", 8 << 10, false, 8e3, 0},         // 4
    {"concatenate", {3, 4}, "cat", 16 << 10, false, 0, 0},  // 5
    {"matmul", {5}, "logits", 4 << 10, false, 1.3e5, 16 << 10},
};

absl::StatusOr<mp::Program> Lower(const std::vector<Node>& graph, bool reorder) {
  mp::ProgramBuilder b("two_branches");
  const mp::ComputationId main = b.AddFunction("main");
  b.SetEntry(main);
  const mp::ValueId input = b.AddParam(main, "x", 16 << 10);
  // Weights are constants: each made by a `constant` op ahead of the nodes.
  std::vector<mp::ValueId> weights;
  for (const Node& node : graph) {
    weights.push_back(node.weight_bytes == 0 ? -1
                                             : b.AddResult(b.AddOp(main, "constant", {}),
                                                           "w_" + node.output, node.weight_bytes));
  }
  std::vector<mp::ValueId> outputs;
  for (std::size_t n = 0; n < graph.size(); ++n) {
    const Node& node = graph[n];
    std::vector<mp::ValueId> operands;
    for (int i : node.inputs) operands.push_back(i < 0 ? input : outputs[i]);
    if (weights[n] >= 0) operands.push_back(weights[n]);
    mp::OpCost cost;
    cost.flops = node.flops;
    const mp::OpId op = b.AddOp(main, node.opcode, operands, cost);
    outputs.push_back(b.AddResult(op, node.output, node.bytes));
    if (node.in_place) b.Tie(outputs.back(), operands[0]);
  }
  b.SetReturn(main, {outputs.back()});
  mp::LoadOptions options;
  options.reorder = reorder;
  return std::move(b).Build(options);
}

void PrintPlacements(const mp::Result& plan) {
  for (const mp::PlannedBuffer& buffer : plan.buffers) {
    if (buffer.lifetime != mp::Lifetime::kTransient) continue;
    const mp::Segment& s = buffer.segments.front();
    std::printf("  %-6s %6lld B at offset %6lld, steps [%lld, %lld]\n", buffer.name.c_str(),
                static_cast<long long>(buffer.size), static_cast<long long>(s.offset),
                static_cast<long long>(s.start), static_cast<long long>(s.end));
  }
}

int main() {
  mp::Options arena;
  arena.transient_capacity = 48 << 10;  // the activations' arena: 48 KiB

  // 1. As written: both 32 KiB branches are live at once.
  absl::StatusOr<mp::Program> written = Lower(kGraph, /*reorder=*/false);
  if (!written.ok()) {
    std::fprintf(stderr, "%s\n", std::string(written.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<mp::Result> plan = mp::Plan(*written, arena);
  std::printf("as written: %s\n", plan.ok() ? "fits" : std::string(plan.status().message()).c_str());

  // 2. Reordered: memplan runs one branch to its pooled output first.
  absl::StatusOr<mp::Program> reordered = Lower(kGraph, /*reorder=*/true);
  if (!reordered.ok()) return 2;
  plan = mp::Plan(*reordered, arena);
  if (!plan.ok()) {
    std::fprintf(stderr, "%s\n", std::string(plan.status().message()).c_str());
    return 1;
  }
  std::printf("reordered:");
  for (const std::string& op : reordered->schedule()) std::printf(" %s", op.c_str());
  std::printf("\n  transient peak %lld bytes, lower bound %lld bytes\n",
              static_cast<long long>(plan->transient_peak),
              static_cast<long long>(plan->lower_bound));
  PrintPlacements(*plan);

  // 3. With 64 KiB of fast memory on the edge-npu target: the copies and
  // the estimated run time against its bound.
  mp::Options fast;
  fast.target = "edge-npu";
  fast.fast_memory_bytes = 64 << 10;
  plan = mp::Plan(*reordered, fast);
  if (!plan.ok()) return 1;
  std::printf("with fast memory: estimated %.3g s, bound %.3g s, %zu copies\n",
              *plan->estimated_time_s, *plan->time_bound_s, plan->copies.size());
  for (const mp::Copy& copy : plan->copies) {
    std::printf("  %s %s: %s -> %s, steps %lld..%lld, %lld B\n",
                copy.kind == mp::Copy::Kind::kPrefetch ? "prefetch" : "eviction",
                copy.buffer.c_str(), copy.from_space.c_str(), copy.to_space.c_str(),
                static_cast<long long>(copy.start), static_cast<long long>(copy.done),
                static_cast<long long>(copy.bytes));
  }
  for (const mp::PlannedBuffer& buffer : plan->buffers) {
    for (const mp::Segment& s : buffer.segments) {
      if (s.space == "alternate") {
        std::printf("  %-8s in fast memory at offset %lld, steps [%lld, %lld]\n",
                    buffer.name.c_str(), static_cast<long long>(s.offset),
                    static_cast<long long>(s.start), static_cast<long long>(s.end));
      }
    }
  }
  return 0;
}
