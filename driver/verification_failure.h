// The error for a plan memplan made that its verifier refused.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "driver/input.h"

namespace memplan {

// An internal error (exit 1) for a plan of `input_path`
// that failed verification with `failure`; `what` names the plan ("plan",
// "region plan"). For formats memplan derives itself (ONNX, TFLite, CSV) the
// refusal is a bug in memplan and says so; a text-IR program may be written
// by hand, and its own aliasing claims (ties, views, `starts`) are then as
// likely a cause, so the message says to check them first.
absl::Status PlanVerificationFailure(InputFormat format, const std::string& input_path,
                                     std::string_view what, std::string_view failure);

}  // namespace memplan
