// Helpers every verb of the command line uses: exit codes, usage errors,
// flag validators.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/units.h"

namespace memplan::cli {

// The process exit code for `status`: 0 ok, 2 invalid argument (bad input
// or usage), 1 otherwise (does not fit, verification failed).
int ExitCodeFor(const absl::Status& status);

// Prints `line` and a newline on stderr, made printable (io/printable_text.h:
// control bytes and invalid UTF-8 an input quoted are escaped, so an error
// is always one readable line).
void PrintError(std::string_view line);

// Prints `status`'s message on stderr (PrintError); returns ExitCodeFor(status).
int Fail(const absl::Status& status);

// A usage error not tied to a file: `memplan: error: message` (exit 2).
absl::Status UsageError(std::string_view message);

// Whether `option` exists and was given on the command line.
bool Given(const CLI::Option* option);

// An output flag's value must name a file: a usage error when it is empty,
// or when it starts with '-' but is not '-' itself (a flag taken as the
// value: `--json -q` would write a file named -q). Example:
// CheckOutputFileName("--json", "-q") -> "memplan: error: --json needs a
// file name, not '-q' (write ./-q for a file of that name)".
absl::Status CheckOutputFileName(std::string_view flag, const std::string& text);

// Accepts a count: an integer in [minimum, 2^63 - 1].
CLI::Validator Count(std::int64_t minimum = 0);

// A byte size flag (ParseByteSize: 1048576, 1MiB, 64KiB ...); a usage error
// naming `flag` when malformed.
absl::StatusOr<Bytes> SizeFlag(const std::string& flag, const std::string& text);

}  // namespace memplan::cli
