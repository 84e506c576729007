// Checks on output paths shared by the jobs that write files (plan, compare),
// done before any work so a bad path fails fast and nothing is half-done.
#pragma once

#include <string>

#include "absl/status/status.h"

namespace memplan {

// InvalidArgument `path: error: cannot write: ...` when `path`'s directory
// does not exist or `path` is a directory; OK otherwise.
absl::Status CheckOutputPath(const std::string& path);

// Whether `a` and `b` name the same file: the same existing file (also through
// links), or the same normalised absolute path of the file each write would
// create, after following links (also dangling ones). weakly_canonical leaves
// a relative path that does not exist as it is, so the paths are made
// absolute first: ./a.json, sub/../a.json and a.json match.
bool SameFile(const std::string& a, const std::string& b);

}  // namespace memplan
