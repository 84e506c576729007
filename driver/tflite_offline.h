// A TFLite model's offline plan (OfflineMemoryAllocation metadata,
// io/tflite/offline_plan.h) against memplan's view of the model: which
// buffers it fixes, whether it is a valid plan (checked by verify/, the
// independent verifier), and --offline-plan's fixed offsets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/input.h"

namespace memplan {

struct TfliteOfflineCheck {
  std::int64_t tensors = 0;   // tensors of subgraph 0 the plan places (offset >= 0)
  std::int64_t buffers = 0;   // memplan buffers they form (views share one)
  std::int64_t nested = 0;    // of those, buffers nested inside another (sub-allocations)
  Bytes head = 0;             // highest offset + size among them
  Bytes bytes = 0;            // their buffers' sizes, nested ones included
  absl::Status verified;      // the verifier's verdict on those buffers at those offsets
};

// Checks `input`'s offline plan (input.tflite->offline_offsets, not empty):
// every placed tensor of subgraph 0 that lives in the arena head (transient)
// is a buffer at its offset; the verifier (VerifyAgainst) checks that no two
// of them share bytes while both are live, except a buffer *nested* in a
// scratch tensor (one no operator writes and no buffer fills, which the op
// reading it addresses itself) — inside its bytes and live only while it
// is — which is declared a
// sub-allocation of it (Buffer::inside; the verifier's rule 13 checks it
// stays inside): Vela places the NPU's input and output inside its scratch
// area, which its command stream addresses (TFLite Micro does not check
// offline plans). The container is the largest (then longest-lived, then
// lowest id) placed buffer containing it. Offsets of weights and
// variables (outside the head) and of tensors memplan does not plan are
// ignored; tensors of other subgraphs are not checked. Errors:
// InvalidArgument `path: error: ...` when tensors sharing one buffer (a
// view) have different offsets.
absl::StatusOr<TfliteOfflineCheck> CheckTfliteOfflinePlan(const LoadedInput& input);

// --offline-plan: sets Buffer::fixed_offset of every buffer the offline plan
// places (as CheckTfliteOfflinePlan reads it), so the packers plan the
// remaining buffers around them; a nested buffer also becomes a
// sub-allocation of its container (Buffer::inside): it takes no bytes of its
// own, so memplan's plan around Vela's is no larger than Vela's head.
// Errors: those of CheckTfliteOfflinePlan.
absl::Status FixTfliteOfflineOffsets(LoadedInput& input);

// "offline plan (OfflineMemoryAllocation): 4 tensors in 4 buffers (3 nested
// inside another), head 74464 bytes (72.72 KiB), verified" (or "fails
// verification: WHY"); with `kept_extent` (--offline-plan: the transient
// extent of memplan's plan around the fixed offsets) a second line says what
// was kept and compares: "--offline-plan kept 4 buffers (158146 bytes) at
// their offsets, 3 of them nested inside another; memplan's transient extent
// around them 74464 bytes (72.72 KiB), the offline plan's head 74464 bytes
// (72.72 KiB): +0 bytes".
std::string FormatTfliteOfflineSummary(const TfliteOfflineCheck& check,
                                       std::optional<Bytes> kept_extent = std::nullopt);

// --write-tflite: the input model (re-read from input.buffers.input) with
// `plan`'s offsets as its OfflineMemoryAllocation metadata (WriteOfflinePlan):
// each tensor of subgraph 0 whose buffer is transient gets its buffer's
// offset in the default space, every other tensor (weights, variables,
// tensors of other subgraphs, tensors memplan does not plan) -1. With
// --reorder (input.reorder) subgraph 0's operators are written in the
// program's order (TfliteOperatorOrder). Errors: those of reading the file
// again, of TfliteOperatorOrder and of WriteOfflinePlan; InvalidArgument
// for a plan with more than one segment per buffer (fast memory).
absl::StatusOr<std::string> TfliteWithPlan(const LoadedInput& input, const Plan& plan);

// Subgraph 0's operator indices in the order the entry computation runs
// them (the ops memplan adds, copies, left out). Errors: InvalidArgument
// `path: error: ...` when a called computation's order changed (one
// subgraph may be imported per call site, in different orders).
absl::StatusOr<std::vector<std::int32_t>> TfliteOperatorOrder(const LoadedInput& input);

// The offsets TfliteWithPlan writes, one per tensor of every subgraph.
absl::StatusOr<std::vector<std::int32_t>> TflitePlanOffsets(const LoadedInput& input,
                                                            const Plan& plan);

}  // namespace memplan
