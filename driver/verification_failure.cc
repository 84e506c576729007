#include "driver/verification_failure.h"

#include "fmt/format.h"

namespace memplan {

absl::Status PlanVerificationFailure(InputFormat format, const std::string& input_path,
                                     std::string_view what, std::string_view failure) {
  if (format == InputFormat::kTextIr) {
    return absl::InternalError(fmt::format(
        "{}: error: the {} failed verification: {}; check the program's ties, views and "
        "`starts` attributes (a hand-written program may claim aliasing its ops cannot have); "
        "if they are right, this is a bug in memplan",
        input_path, what, failure));
  }
  return absl::InternalError(
      fmt::format("{}: error: internal error (a bug in memplan): the {} failed verification: {}",
                  input_path, what, failure));
}

}  // namespace memplan
