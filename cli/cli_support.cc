#include "cli/cli_support.h"

#include <charconv>
#include <iostream>

#include "cli/commands.h"
#include "fmt/format.h"
#include "io/byte_size.h"
#include "io/printable_text.h"

namespace memplan::cli {

int ExitCodeFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk: return kExitOk;
    case absl::StatusCode::kInvalidArgument: return kExitBadInput;
    default: return kExitPlanningFailure;
  }
}

void PrintError(std::string_view line) {
  // One line whatever the input quoted in the message holds.
  std::cerr << PrintableText(line) << "\n";
}

int Fail(const absl::Status& status) {
  PrintError(std::string(status.message()));
  return ExitCodeFor(status);
}

absl::Status UsageError(std::string_view message) {
  return absl::InvalidArgumentError(fmt::format("memplan: error: {}", message));
}

bool Given(const CLI::Option* option) { return option != nullptr && option->count() > 0; }

absl::Status CheckOutputFileName(std::string_view flag, const std::string& text) {
  if (text.empty()) return UsageError(fmt::format("{} needs a file name", flag));
  if (text.size() > 1 && text.front() == '-') {
    return UsageError(fmt::format("{} needs a file name, not '{}' (write ./{} for a file of that name)",
                                  flag, text, text));
  }
  return absl::OkStatus();
}

CLI::Validator Count(std::int64_t minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        std::int64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (error == std::errc() && stop == end && value >= minimum) return "";
        return "expected an integer from " + std::to_string(minimum) +
               " to 9223372036854775807, got '" + text + "'";
      },
      "N");
}

absl::StatusOr<Bytes> SizeFlag(const std::string& flag, const std::string& text) {
  absl::StatusOr<Bytes> bytes = ParseByteSize(text);
  if (!bytes.ok()) return UsageError(fmt::format("{}: {}", flag, std::string(bytes.status().message())));
  return bytes;
}

}  // namespace memplan::cli
