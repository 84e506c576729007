// Plans the activations of one transformer block (sequence 128, model width
// 256, 4x feed-forward) built in code with memplan's public API, and prints
// where each buffer lives. Weights are constants; the softmax and the GELU
// write in place.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "memplan/memplan.h"

namespace mp = memplan::api;

int main() {
  constexpr std::int64_t kSeq = 128, kModel = 256, kHidden = 4 * kModel;
  mp::ProgramBuilder b("transformer_block");
  const mp::ComputationId main = b.AddFunction("main");
  b.SetEntry(main);
  const auto tensor = [&](mp::OpId op, std::string name, std::vector<std::int64_t> dims) {
    return b.AddResult(op, std::move(name), "f32", std::move(dims));
  };
  const auto weight = [&](std::string name, std::vector<std::int64_t> dims) {
    return tensor(b.AddOp(main, "constant", {}), std::move(name), std::move(dims));
  };
  const auto matmul = [&](std::string name, mp::ValueId x, mp::ValueId w, std::int64_t rows,
                          std::int64_t k, std::int64_t cols) {
    mp::OpCost cost;
    cost.flops = 2.0 * static_cast<double>(rows * k * cols);
    return tensor(b.AddOp(main, "matmul", {x, w}, cost), std::move(name), {rows, cols});
  };

  const mp::ValueId x = b.AddParam(main, "x", "f32", {kSeq, kModel});
  const mp::ValueId wq = weight("wq", {kModel, kModel});
  const mp::ValueId wk = weight("wk", {kModel, kModel});
  const mp::ValueId wv = weight("wv", {kModel, kModel});
  const mp::ValueId wo = weight("wo", {kModel, kModel});
  const mp::ValueId w1 = weight("w1", {kModel, kHidden});
  const mp::ValueId w2 = weight("w2", {kHidden, kModel});

  const mp::ValueId ln1 = tensor(b.AddOp(main, "layernorm", {x}), "ln1", {kSeq, kModel});
  const mp::ValueId q = matmul("q", ln1, wq, kSeq, kModel, kModel);
  const mp::ValueId k = matmul("k", ln1, wk, kSeq, kModel, kModel);
  const mp::ValueId v = matmul("v", ln1, wv, kSeq, kModel, kModel);
  const mp::ValueId scores = matmul("scores", q, k, kSeq, kModel, kSeq);
  const mp::OpId softmax_op = b.AddOp(main, "softmax", {scores});
  const mp::ValueId probs = tensor(softmax_op, "probs", {kSeq, kSeq});
  b.Tie(probs, scores);
  const mp::ValueId attn = matmul("attn", probs, v, kSeq, kSeq, kModel);
  const mp::ValueId proj = matmul("proj", attn, wo, kSeq, kModel, kModel);
  const mp::ValueId res1 = tensor(b.AddOp(main, "add", {x, proj}), "res1", {kSeq, kModel});
  const mp::ValueId ln2 = tensor(b.AddOp(main, "layernorm", {res1}), "ln2", {kSeq, kModel});
  const mp::ValueId up = matmul("up", ln2, w1, kSeq, kModel, kHidden);
  const mp::OpId gelu_op = b.AddOp(main, "gelu", {up});
  const mp::ValueId act = tensor(gelu_op, "act", {kSeq, kHidden});
  b.Tie(act, up);
  const mp::ValueId down = matmul("down", act, w2, kSeq, kHidden, kModel);
  const mp::ValueId y = tensor(b.AddOp(main, "add", {res1, down}), "y", {kSeq, kModel});
  b.SetReturn(main, {y});

  absl::StatusOr<mp::Program> program = std::move(b).Build();
  if (!program.ok()) {
    std::fprintf(stderr, "%s\n", std::string(program.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<mp::Result> plan = mp::Plan(*program);
  if (!plan.ok()) {
    std::fprintf(stderr, "%s\n", std::string(plan.status().message()).c_str());
    return 1;
  }
  std::printf("memplan %s: transient peak %lld bytes, lower bound %lld (%s)\n", mp::Version(),
              static_cast<long long>(plan->transient_peak),
              static_cast<long long>(plan->lower_bound), plan->algorithm.c_str());
  for (const mp::PlannedBuffer& buffer : plan->buffers) {
    if (buffer.lifetime != mp::Lifetime::kTransient) continue;
    for (const mp::Segment& s : buffer.segments) {
      std::printf("%-7s %8lld B  offset %8lld  steps [%lld, %lld]\n", buffer.name.c_str(),
                  static_cast<long long>(buffer.size), static_cast<long long>(s.offset),
                  static_cast<long long>(s.start), static_cast<long long>(s.end));
    }
  }
  return 0;
}
