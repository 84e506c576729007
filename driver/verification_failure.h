// The error for a plan memplan made that its verifier refused.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "driver/input.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "verify/region_checks.h"

namespace memplan {

// An internal error (exit 1) for a plan of `input_path`
// that failed verification with `failure`; `what` names the plan ("plan",
// "region plan"). For formats memplan derives itself (ONNX, TFLite, CSV) the
// refusal is a bug in memplan and says so; a text-IR program may be written
// by hand, and its own aliasing claims (ties, views, `starts`) are then as
// likely a cause, so the message says to check them first.
absl::Status PlanVerificationFailure(InputFormat format, const std::string& input_path,
                                     std::string_view what, std::string_view failure);

// The input error (InvalidArgument, exit 2, `path:line:col: error: ...`)
// for a region program whose plan *without memory reuse* (`as_written`)
// failed the region verifier with `failure` at `site`: the program itself is
// wrong. By what failed: a subview at an offset given by dims that leaves
// its slice (site.value: located at the view's definition), two ops of one
// wave touching the same bytes (a race), else a read of data the program
// overwrote itself (located at the op of the failing command, when known).
absl::Status RegionInputFailure(const Program& program, const Plan& as_written,
                                const std::string& input_path, const RegionFailureSite& site,
                                std::string_view failure);

}  // namespace memplan
