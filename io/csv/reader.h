// Reads the lifetime CSV used by MiniMalloc (google/minimalloc) and the
// idealloc traces: one buffer per line with a half-open live range.
//
//   id,lower,upper,size[,alignment]
//   b1,0,3,4          ->  Buffer{name = "b1", size = 4, start = 0, end = 2}
//
// Format: a header line naming the columns id, lower, upper, size (required)
// and alignment (optional, default 1), in any order; then one line per buffer.
// Fields are separated by commas; spaces and tabs around a field are ignored;
// there is no quoting. Live ranges [lower, upper) become closed [lower,
// upper - 1]; time_steps is the largest upper (0 for no buffers). Every buffer
// is transient, unpinned, with no values or use times. CRLF or LF line ends, a
// UTF-8 byte-order mark, blank lines and a missing final newline are accepted.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/buffer_set.h"

namespace memplan {

// Longest accepted line, in bytes (without its line end).
inline constexpr size_t kMaxCsvLineBytes = 65536;

// Parses `text` (read from `path`, used in messages and as BufferSet::input).
// Errors: InvalidArgument `path:line:col: error: ...`, the column being the
// 1-based byte column of the offending field or byte, for: an empty file; a
// header missing a required column, naming an unknown, empty or repeated
// column (MiniMalloc's `gaps` column is recognised but unsupported); a line
// with the wrong number of fields; an empty or repeated id; a number that is
// not a decimal integer, is negative or does not fit 63 bits; upper <= lower;
// upper above kMaxTimeSteps; alignment < 1 or above kMaxAlignment; a size
// above kMaxTotalBytes, or a row whose size plus alignment - 1 bytes of
// padding is (located at the size; the limits of ir/units.h; the total and
// --alignment are checked by the driver); a line longer than kMaxCsvLineBytes (column 65537); invalid
// UTF-8 or a NUL byte (column of the byte). O(size of text).
absl::StatusOr<BufferSet> ReadLifetimeCsv(std::string_view text, std::string_view path);

// ReadFile (io/file_io.h) then ReadLifetimeCsv; the same errors.
absl::StatusOr<BufferSet> ReadLifetimeCsvFile(const std::string& path);

}  // namespace memplan
