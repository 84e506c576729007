// Whole-file reading and crash-safe writing for inputs and outputs.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace memplan {

// The bytes of the file at `path`. Errors: InvalidArgument
// `path: error: cannot read: <reason>` for a missing or unreadable file or a
// directory (reason from strerror, e.g. "No such file or directory").
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Replaces the file at `path` with `contents` atomically: writes a temporary
// file in the same directory, flushes it to disk and renames it over `path`,
// so readers see the old file or the new one, never a half-written one. The
// new file gets the usual permissions (0666 minus the umask). Errors:
// InvalidArgument `path: error: cannot write: <reason>` (e.g. the directory
// does not exist or `path` is a directory); the temporary file is removed.
absl::Status WriteFileAtomically(const std::string& path, std::string_view contents);

}  // namespace memplan
