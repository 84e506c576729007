// Whole-file reading and crash-safe writing for inputs and outputs.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace memplan {

// The bytes of the file at `path`. Errors: InvalidArgument
// `path: error: cannot read file: <reason>` for a missing or unreadable file or a
// directory (reason from strerror, e.g. "No such file or directory").
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Replaces the file at `path` with `contents` atomically: writes a temporary
// file in the same directory, flushes it to disk and renames it over `path`,
// so readers see the old file or the new one, never a half-written one. The
// new file gets the usual permissions (0666 minus the umask). Errors:
// InvalidArgument `path: error: cannot write: <reason>` (e.g. the directory
// does not exist or `path` is a directory); the temporary file is removed.
absl::Status WriteFileAtomically(const std::string& path, std::string_view contents);

// Writes several files (path, contents) as WriteFileAtomically does, all or
// none as far as the file system allows: every temporary file is written and
// flushed before the first rename, so a write failure (unwritable directory,
// full disk, a path that is a directory) leaves every existing file as it
// was. Only a rename failing after the first one could leave earlier files
// replaced. Errors: those of WriteFileAtomically, for the first failing path;
// no temporary file is left behind.
absl::Status WriteFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace memplan
