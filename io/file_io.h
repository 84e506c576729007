// Whole-file reading and crash-safe writing for inputs and outputs.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace memplan {

// The bytes of the file at `path`. Errors: InvalidArgument
// `path: error: cannot read file: <reason>` for a missing or unreadable file or a
// directory (reason from strerror, e.g. "No such file or directory").
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Reads the file at `path` in order, `chunk_bytes` (> 0) at a time, and
// passes each chunk to `consume` (the last may be shorter; an empty file
// gives none), stopping at the first error it returns: a large input is
// read without holding it whole in memory. Errors: those of ReadFile, and
// consume's.
absl::Status ReadFileInChunks(const std::string& path, std::size_t chunk_bytes,
                              absl::FunctionRef<absl::Status(std::string_view)> consume);

// `path` after following symbolic links (a link's relative target is
// relative to the link's directory) to the path that names no link, even
// when that last target does not exist yet: writing through a dangling link
// creates it. Errors: InvalidArgument `path: error: cannot write: <reason>`
// for an unreadable link or more than 40 links in a row (Linux's own limit,
// reported as "Too many levels of symbolic links").
absl::StatusOr<std::string> FollowLinks(const std::string& path);

// Replaces the file at `path` with `contents` atomically: writes a temporary
// file in the same directory, flushes it to disk and renames it over `path`,
// so readers see the old file or the new one, never a half-written one. The
// new file gets the usual permissions (0666 minus the umask). A symbolic link
// is followed (also a dangling one): the file it names is replaced, in that
// file's directory, and the link stays. An existing special file (character
// device such as /dev/null, FIFO, socket) cannot be replaced by a rename: it
// is opened and written directly, which is not atomic. Errors:
// InvalidArgument `path: error: cannot write: <reason>` (e.g. the directory
// does not exist, `path` is a directory, or links loop); the temporary file
// is removed.
absl::Status WriteFileAtomically(const std::string& path, std::string_view contents);

// Writes several files (path, contents) as WriteFileAtomically does, all or
// none as far as the file system allows: every temporary file is written and
// flushed before the first special file is written or regular file renamed,
// so a write failure (unwritable directory, full disk, a path that is a
// directory) leaves every existing file as it was. Special files are written
// before the renames; only a failure writing one of them or a rename after
// the first one could leave earlier files changed. Errors: those of WriteFileAtomically, for the first failing path;
// no temporary file is left behind.
absl::Status WriteFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files);

// Passes text to a file, piece by piece; an error ends the writing.
using TextSink = absl::FunctionRef<absl::Status(std::string_view)>;

// A file to write: its text, or a function that passes its text to a
// sink in pieces, for outputs too large to hold in memory (a plan's JSON at
// 10^7 buffers is gigabytes).
struct OutputFile {
  std::string path;
  std::string contents;                               // when `produce` is empty
  std::function<absl::Status(TextSink)> produce = {};
};

// WriteFilesAtomically for files given whole or made
// piece by piece: each is produced into its temporary (or, for a special
// file, written as produced) in the same order, with the same errors, and
// a producer's own error stops everything as a write error would.
absl::Status WriteOutputsAtomically(const std::vector<OutputFile>& files);

// Collects text and passes it to a sink about `chunk_bytes` at a time
// (Flush passes the rest), for writers that make more than should be held.
// Example: ChunkedText out(sink); out.Append("a"); ...; out.Flush();
class ChunkedText {
 public:
  explicit ChunkedText(TextSink sink, std::size_t chunk_bytes = std::size_t{1} << 20)
      : sink_(sink), chunk_bytes_(chunk_bytes) {}
  // The text not passed yet, to append to; call Pass after appending.
  std::string& text() { return text_; }
  // Passes the text to the sink once it holds a chunk.
  absl::Status Pass() { return text_.size() >= chunk_bytes_ ? Flush() : absl::OkStatus(); }
  absl::Status Append(std::string_view piece) {
    text_.append(piece);
    return Pass();
  }
  absl::Status Flush() {
    if (text_.empty()) return absl::OkStatus();
    absl::Status s = sink_(text_);
    text_.clear();
    return s;
  }

 private:
  TextSink sink_;
  std::size_t chunk_bytes_;
  std::string text_;
};

// Checks, before any work, that a file can be written at `path`: its
// directory exists and it is not a directory. Errors: InvalidArgument
// `path: error: cannot write: directory 'D' does not exist` or `...: Is a
// directory`.
absl::Status CheckOutputPath(const std::string& path);

// Whether `a` and `b` name the same file: the same existing file (also
// through links), or the same normalised absolute path of the file each
// write would create, after following links (also dangling ones): ./a.json,
// sub/../a.json and a.json match.
bool SameFile(const std::string& a, const std::string& b);

}  // namespace memplan
