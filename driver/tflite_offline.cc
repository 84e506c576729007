#include "driver/tflite_offline.h"

#include <algorithm>
#include <map>

#include "driver/plan_job.h"
#include "fmt/format.h"
#include "io/byte_size.h"
#include "io/file_io.h"
#include "ir/plural.h"
#include "io/tflite/offline_plan.h"

namespace memplan {
namespace {

// Buffer -> offset for the head tensors the offline plan places.
absl::StatusOr<std::map<BufferId, Bytes>> OfflineBufferOffsets(const LoadedInput& input) {
  const TfliteInputInfo& info = *input.tflite;
  std::map<BufferId, Bytes> offsets;
  std::map<BufferId, std::size_t> first_tensor;
  const std::size_t n = std::min(info.tensor_values.size(), info.offline_offsets.size());
  for (std::size_t t = 0; t < n; ++t) {
    const ValueId v = info.tensor_values[t];
    if (info.offline_offsets[t] < 0 || v == kNoId) continue;
    const BufferId b = input.analysis->value_buffer[v];
    if (b == kNoId || input.buffers.buffers[b].lifetime != Lifetime::kTransient) continue;
    const Bytes offset = info.offline_offsets[t];
    auto [it, inserted] = offsets.emplace(b, offset);
    if (inserted) {
      first_tensor.emplace(b, t);
    } else if (it->second != offset) {
      return absl::InvalidArgumentError(fmt::format(
          "{}: error: the offline plan gives tensors {} and {} offsets {} and {}, but they share "
          "storage in memplan's program (buffer '{}'); plan with --no-alias",
          input.buffers.input, first_tensor[b], t, it->second, offset,
          input.buffers.buffers[b].name));
    }
  }
  return offsets;
}

// Whether buffer `b` is scratch memory: a tensor no operator writes and no
// buffer fills, which the importer allocates with `tflite.allocate` (Vela's
// scratch areas). The op reading it addresses it itself (an NPU command
// stream), so it may hold other tensors: only scratch is a container.
bool IsOfflineScratch(const LoadedInput& input, BufferId b) {
  for (ValueId v : input.buffers.buffers[b].values) {
    const OpId op = input.program->values[v].defining_op;
    if (op != kNoId && input.program->ops[op].opcode == "tflite.allocate") return true;
  }
  return false;
}

// For each placed buffer, the placed scratch buffer it nests in (absent:
// none): one whose bytes contain its bytes and that is live over its whole
// live range, the largest (then longest-lived, then lowest id) such. Vela
// places the NPU's input and output inside its scratch area, which its
// command stream addresses: a sub-allocation, not a conflict. A tensor
// inside another kind of tensor (an op's input inside its output, say) is
// not nested: the verifier sees the conflict. O(n^2) in the placed buffers.
std::map<BufferId, BufferId> NestedOfflineBuffers(const LoadedInput& input,
                                                  const std::map<BufferId, Bytes>& offsets) {
  const BufferSet& buffers = input.buffers;
  std::map<BufferId, BufferId> nested;
  for (const auto& [a, a_offset] : offsets) {
    const Buffer& inner = buffers.buffers[a];
    BufferId best = kNoId;
    for (const auto& [b, b_offset] : offsets) {
      if (a == b || !IsOfflineScratch(input, b)) continue;
      const Buffer& outer = buffers.buffers[b];
      const bool contains = b_offset <= a_offset && a_offset + inner.size <= b_offset + outer.size &&
                            outer.start <= inner.start && inner.end <= outer.end;
      if (!contains) continue;
      // Two buffers that contain each other: the longer-lived (then lower id) is the container.
      const auto longer = [&](BufferId x, BufferId y) {
        const Buffer& bx = buffers.buffers[x];
        const Buffer& by = buffers.buffers[y];
        if (bx.size != by.size) return bx.size > by.size;
        if (bx.end - bx.start != by.end - by.start) return bx.end - bx.start > by.end - by.start;
        return x < y;
      };
      if (!longer(b, a)) continue;
      if (best == kNoId || longer(b, best)) best = b;
    }
    if (best != kNoId) nested.emplace(a, best);
  }
  return nested;
}

}  // namespace

absl::StatusOr<TfliteOfflineCheck> CheckTfliteOfflinePlan(const LoadedInput& input) {
  absl::StatusOr<std::map<BufferId, Bytes>> offsets = OfflineBufferOffsets(input);
  if (!offsets.ok()) return offsets.status();
  TfliteOfflineCheck check;
  for (std::size_t t = 0; t < input.tflite->offline_offsets.size() &&
                          t < input.tflite->tensor_values.size();
       ++t) {
    if (input.tflite->offline_offsets[t] >= 0) ++check.tensors;
  }
  // The placed buffers alone, as one transient pool at their offsets.
  BufferSet placed;
  placed.input = input.buffers.input;
  placed.time_steps = input.buffers.time_steps;
  Plan plan;
  plan.input = placed.input;
  plan.algorithm = "offline";
  plan.time_steps = placed.time_steps;
  const std::map<BufferId, BufferId> nested = NestedOfflineBuffers(input, *offsets);
  check.nested = static_cast<std::int64_t>(nested.size());
  // Ids in `placed`: the placed buffers in id order.
  std::map<BufferId, BufferId> placed_id;
  for (const auto& [b, offset] : *offsets) {
    placed_id.emplace(b, static_cast<BufferId>(placed_id.size()));
  }
  for (const auto& [b, offset] : *offsets) {
    Buffer buffer = input.buffers.buffers[b];
    buffer.mutable_gaps().clear();  // read as whole hulls, as TFLite Micro does
    buffer.mutable_fixed_offset().reset();
    buffer.mutable_inside().reset();
    if (auto it = nested.find(b); it != nested.end()) {
      // A sub-allocation the verifier checks (rule 13), not a conflict.
      buffer.mutable_inside() =
          SubAllocation{placed_id.at(it->second), offset - offsets->at(it->second)};
    }
    placed.buffers.push_back(buffer);
    plan.placements.push_back(
        BufferPlacement{"transient", {Allocation{kDefaultSpace, offset, buffer.start, buffer.end}}});
    check.head = std::max(check.head, offset + buffer.size);
    check.bytes += buffer.size;
  }
  check.buffers = static_cast<std::int64_t>(offsets->size());
  PoolInfo pool;
  pool.name = "transient";
  pool.size = check.head;
  pool.buffers = static_cast<std::int64_t>(placed.buffers.size());
  for (const Buffer& b : placed.buffers) pool.total_bytes += b.size;
  plan.pools = {pool};
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, check.head, 1}};
  plan.peak = check.head;
  check.verified = VerifyAgainst(placed, plan);
  return check;
}

absl::Status FixTfliteOfflineOffsets(LoadedInput& input) {
  absl::StatusOr<std::map<BufferId, Bytes>> offsets = OfflineBufferOffsets(input);
  if (!offsets.ok()) return offsets.status();
  const std::map<BufferId, BufferId> nested = NestedOfflineBuffers(input, *offsets);
  for (const auto& [b, offset] : *offsets) {
    std::optional<SubAllocation> inside;
    if (auto it = nested.find(b); it != nested.end()) {
      inside = SubAllocation{it->second, offset - offsets->at(it->second)};
    }
    for (BufferSet* set : {&input.buffers, &input.analysis->buffers}) {
      set->buffers[b].mutable_fixed_offset() = offset;
      set->buffers[b].mutable_inside() = inside;
    }
  }
  return absl::OkStatus();
}

std::string FormatTfliteOfflineSummary(const TfliteOfflineCheck& check,
                                       std::optional<Bytes> kept_extent) {
  std::string text = fmt::format(
      "offline plan (OfflineMemoryAllocation): {} in {} ({} nested inside "
      "another), head {}, {}\n",
      CountOf(check.tensors, "tensor"), CountOf(check.buffers, "buffer"), check.nested,
      BytesAndHuman(check.head),
      check.verified.ok() ? "verified"
                          : "fails verification: " + std::string(check.verified.message()));
  if (kept_extent) {
    const Bytes over = *kept_extent - check.head;
    text += fmt::format(
        "--offline-plan kept {} ({}) at their offsets, {} of them nested inside "
        "another; memplan's transient extent around them {}, the offline plan's head "
        "{}: {}{}\n",
        CountOf(check.buffers, "buffer"), CountOf(check.bytes, "byte"), check.nested,
        BytesAndHuman(*kept_extent), BytesAndHuman(check.head), over < 0 ? "" : "+",
        CountOf(over, "byte"));
  }
  return text;
}

absl::StatusOr<std::vector<std::int32_t>> TflitePlanOffsets(const LoadedInput& input,
                                                            const Plan& plan) {
  const TfliteInputInfo& info = *input.tflite;
  std::vector<std::int32_t> offsets(static_cast<std::size_t>(info.total_tensors), -1);
  for (std::size_t t = 0; t < info.tensor_values.size(); ++t) {
    const ValueId v = info.tensor_values[t];
    if (v == kNoId) continue;
    const BufferId b = input.analysis->value_buffer[v];
    if (b == kNoId || input.buffers.buffers[b].lifetime != Lifetime::kTransient) continue;
    const AllocationList& segments = plan.placements[b].allocations;
    if (segments.size() != 1 || segments[0].space != kDefaultSpace) {
      return absl::InvalidArgumentError(fmt::format(
          "{}: error: --write-tflite writes one arena offset per tensor; buffer '{}' has {} "
          "segments (fast memory plans cannot be written as an offline plan)",
          input.buffers.input, input.buffers.buffers[b].name, segments.size()));
    }
    if (segments[0].offset > 0x7fffffff) {
      return absl::InvalidArgumentError(fmt::format(
          "{}: error: --write-tflite: offset {} of buffer '{}' does not fit an int32",
          input.buffers.input, segments[0].offset, input.buffers.buffers[b].name));
    }
    offsets[t] = static_cast<std::int32_t>(segments[0].offset);
  }
  return offsets;
}

absl::StatusOr<std::vector<std::int32_t>> TfliteOperatorOrder(const LoadedInput& input) {
  const Program& program = *input.program;
  const std::vector<std::int32_t>& operator_of = input.tflite->entry_operator;
  std::vector<std::int32_t> order;
  for (OpId op : program.computations[program.entry].ops) {
    const std::int32_t i = static_cast<std::size_t>(op) < operator_of.size() ? operator_of[op] : -1;
    if (i >= 0) order.push_back(i);
  }
  // The file holds one order per subgraph; the program one per call site.
  if (const ComputationId c = ReorderedCallee(input); c != kNoId) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: error: --write-tflite with --reorder writes subgraph 0's new operator order, but "
        "--reorder also reordered the called computation @{} (a subgraph of IF, WHILE or "
        "CALL_ONCE), which the model cannot hold per call site",
        input.buffers.input, program.computations[c].name));
  }
  return order;
}

absl::StatusOr<std::string> TfliteWithPlan(const LoadedInput& input, const Plan& plan) {
  absl::StatusOr<std::vector<std::int32_t>> offsets = TflitePlanOffsets(input, plan);
  if (!offsets.ok()) return offsets.status();
  std::vector<std::int32_t> order;
  if (input.reorder) {
    absl::StatusOr<std::vector<std::int32_t>> reordered = TfliteOperatorOrder(input);
    if (!reordered.ok()) return reordered.status();
    order = *std::move(reordered);
  }
  const std::string& path = input.buffers.input;
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<TfliteModel> model = ParseTfliteModel(
      reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size(), path);
  if (!model.ok()) return model.status();
  if (!order.empty() && order.size() != model->subgraphs[0].operators.size()) {
    return absl::InternalError(fmt::format("{}: error: --write-tflite: {} of {} operators ordered",
                                           path, order.size(),
                                           model->subgraphs[0].operators.size()));
  }
  return WriteOfflinePlan(*model, *bytes, *offsets, path, order);
}

}  // namespace memplan
