#include "driver/verification_failure.h"

#include "fmt/format.h"
#include "ir/diagnostic.h"

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

absl::Status RegionInputFailure(const Program& program, const Plan& as_written,
                                const std::string& input_path, const RegionFailureSite& site,
                                std::string_view failure) {
  std::string detail(failure);
  if (const std::size_t colon = detail.find("): "); colon != std::string::npos) {
    detail = detail.substr(colon + 3);
  }
  // A subview at an offset given by dims that leaves its slice: point at its
  // definition and say so (it is not a read of overwritten data).
  if (site.value >= 0 && site.value < static_cast<ValueId>(program.values.size())) {
    const Value& view = program.values[site.value];
    return LocatedError(
        input_path, view.loc,
        "subview %" + view.name + " at an offset given by dims does not stay inside its buffer's "
            "memory for every binding of the dims (so even without memory reuse): " + detail +
            "; bound the dims, or give the view an offset and size that provably end inside "
            "its operand");
  }
  // Point at the op whose command failed, when one did.
  SourceLocation where;
  if (site.has_command && as_written.regions && site.step < as_written.regions->steps.size() &&
      site.command < as_written.regions->steps[site.step].commands.size()) {
    const OpId op = as_written.regions->steps[site.step].commands[site.command].op;
    if (op >= 0 && op < static_cast<OpId>(program.ops.size())) where = program.ops[op].loc;
  }
  const bool race = detail.starts_with("race");
  return LocatedError(
      input_path, where,
      race ? "two ops of one wave touch the same bytes and one of them writes them (so even "
             "without memory reuse): " + detail + "; move one of them to another wave"
           : "the program reads data it has itself overwritten (so even without memory reuse): " +
                 detail + "; clone a value before writing it in place, or read the written value");
}

}  // namespace memplan
