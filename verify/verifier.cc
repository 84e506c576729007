#include "verify/verifier.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"

#include "verify/checks.h"
#include "verify/program_liveness.h"

namespace memplan {

absl::Status VerifyPlan(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options) {
  using namespace verify_internal;
  if (absl::Status s = CheckShapeAndSegments(buffers, plan, options); !s.ok()) return s;
  // Dead steps let two buffers share bytes; they come from the program,
  // or from the input when it states them (a CSV's gaps), never from what
  // the planners derived.
  BufferDeadSteps dead;
  if (options.program) {
    dead = BufferDeadSteps::FromProgram(DeadSteps(*options.program, buffers));
  } else if (options.input_gaps) {
    dead = BufferDeadSteps::FromInput(buffers);
  }
  const bool input_windows = !options.program && options.input_gaps;
  if (absl::Status s = CheckSubAllocations(buffers, plan, dead, input_windows); !s.ok()) return s;
  if (absl::Status s = CheckNoOverlap(buffers, plan, dead, input_windows);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckCopies(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckWindowPrefetches(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckSummaries(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckSingleOrigin(buffers, plan); !s.ok()) return s;
  if (absl::Status s = CheckControlFlow(buffers, plan); !s.ok()) return s;
  if (options.hierarchy) {
    if (absl::Status s = CheckHierarchy(buffers, plan, *options.hierarchy, options.program);
        !s.ok()) {
      return s;
    }
  } else if (absl::Status s = CheckStagingChunks(buffers, plan, nullptr); !s.ok()) {
    return s;
  }
  if (!options.program) return absl::OkStatus();
  if (absl::Status s = CheckWritesEvicted(buffers, plan, *options.program); !s.ok()) return s;
  if (absl::Status s = CheckGathers(buffers, *options.program); !s.ok()) return s;
  if (absl::Status s = CheckSliceViews(*options.program); !s.ok()) return s;
  return CheckValueOffsets(buffers, plan, *options.program);
}

std::optional<BufferId> ViolationBuffer(const absl::Status& status) {
  const auto payload = status.GetPayload(kViolationBufferPayload);  // absl::optional<absl::Cord>
  BufferId id = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &id) || id < 0) return std::nullopt;
  return id;
}

}  // namespace memplan
