// Reads the lifetime CSV used by MiniMalloc (google/minimalloc) and the
// idealloc traces: one buffer per line with a half-open live range.
//
//   id,lower,upper,size[,alignment][,offset][,gaps]
//   b1,0,3,4          ->  Buffer{name = "b1", size = 4, start = 0, end = 2}
//
// Format: a header line naming the columns id, lower, upper, size (required)
// and alignment (default 1), offset and gaps (optional), in any order; then
// one line per buffer. Fields are separated by commas; spaces and tabs around
// a field are ignored; there is no quoting. Live ranges [lower, upper) become
// closed [lower, upper - 1]; time_steps is the largest upper (0 for no
// buffers). Every buffer is transient, unpinned, with no values or use
// times. CRLF or LF line ends, a UTF-8 byte-order mark, blank lines and a
// missing final newline are accepted. BufferSet::csv_columns records the
// header, BufferSet::csv_rows where each row's fields are (CsvFieldsOf).
//
// MiniMalloc's optional columns:
//  * offset: a fixed position (Buffer::fixed_offset) every packer keeps; an
//    empty field leaves that buffer free.
//  * gaps: space-separated entries `L-U` (half-open steps [L, U) where the
//    buffer holds nothing: Buffer::gaps, closed [L, U - 1]; adjacent ones
//    merge) or `L-U@LO:HI` (during [L, U) it keeps only bytes [LO, HI) of
//    its extent: Buffer::windows; LO == HI is a dead gap). Example: `b,0,10,
//    64,2-4 6-8@0:32` -> gaps {[2,3]}, windows {[6,7] bytes [0,32)}.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/buffer_set.h"

namespace memplan {

// Longest accepted line, in bytes (without its line end).
inline constexpr size_t kMaxCsvLineBytes = 65536;

// Parses `text` (read from `path`, used in messages and as BufferSet::input).
// Errors: InvalidArgument `path:line:col: error: ...`, the column being the
// 1-based byte column of the offending field, gap entry or byte, for: an
// empty file; a header missing a required column, naming an unknown, empty
// or repeated column; a line with the wrong number of fields; an empty or
// repeated id; a number that is not a decimal integer or is negative; a
// number that does not fit 63 bits (reported against its field's limit
// below: 2^62 time steps, 2^62 bytes, alignment 2^32); upper <= lower;
// upper above kMaxTimeSteps; alignment < 1
// or above kMaxAlignment; a size above kMaxTotalBytes, or a row whose size
// plus alignment - 1 bytes of padding is (located at the size; the limits of
// ir/units.h; the total and --alignment are checked by the driver); an
// offset that is not a multiple of the row's alignment or whose end passes
// kMaxTotalBytes; a gap entry not of the form L-U[@LO:HI], empty (U <= L),
// outside [lower, upper), overlapping another, with a window not LO <= HI <=
// size, or a dead gap reaching the first or last step (shorten the range
// instead); a line longer than kMaxCsvLineBytes (column 65537); invalid
// UTF-8 or a NUL byte (column of the byte). Colliding fixed offsets are the
// driver's to refuse (driver/fixed_offsets.h). O(size of text).
//
// `offsets`: kFixed for a problem (an offset pins its buffer, so it must be
// aligned); kSolution for a solution (`verify X.csv SOLUTION.csv`), whose
// offsets the verifier checks against the problem's alignments: a
// misaligned one is a broken rule there (exit 1), not bad input.
enum class CsvOffsets { kFixed, kSolution };
absl::StatusOr<BufferSet> ReadLifetimeCsv(std::string_view text, std::string_view path,
                                          CsvOffsets offsets = CsvOffsets::kFixed);

// ReadLifetimeCsv on the file at `path`, read in chunks (io/file_io.h,
// ReadFileInChunks): the file is never held whole. The same errors, and
// those of reading the file.
absl::StatusOr<BufferSet> ReadLifetimeCsvFile(const std::string& path,
                                              CsvOffsets offsets = CsvOffsets::kFixed);

// Where the fields of the row of buffer `row` are in the lifetime CSV
// `buffers` was read from (BufferSet::csv_rows; the row's line and each
// field's 1-based byte column, as the reader's messages give them);
// nullopt for buffers not read from a lifetime CSV or a row past the end.
// O(log s) for s rows stored in csv_rows (rows written differently from
// how their values print).
std::optional<CsvRowFields> CsvFieldsOf(const BufferSet& buffers, std::size_t row);

}  // namespace memplan
