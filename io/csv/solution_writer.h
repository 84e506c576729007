// Writes a packing of a lifetime CSV in MiniMalloc's output form: the input's
// columns, in the input's order, with every buffer's offset in the `offset`
// column (appended when the input had none). `memplan plan X.csv --csv
// SOLUTION.csv` writes it; `memplan verify X.csv SOLUTION.csv` and
// MiniMalloc's own validator read it back.
//
// Example: input `id,lower,upper,size` with b1,0,3,4 and b2,3,9,4 placed at
// 0 and 0 ->
//   id,lower,upper,size,offset
//   b1,0,3,4,0
//   b2,3,9,4,0
#pragma once

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "io/file_io.h"
#include "ir/buffer_set.h"
#include "ir/units.h"

namespace memplan {

// The CSV text for `buffers` (read by io/csv/reader.h; csv_columns gives the
// header) placed at `offsets` (one per buffer, in bytes). Values are written
// as the reader understood them: lower = start, upper = end + 1, alignment,
// and gaps regenerated from Buffer::gaps and Buffer::windows in time order
// (`L-U`, `L-U@LO:HI`, half-open; adjacent dead gaps come out merged). With
// no csv_columns (not a CSV input) the header is id,lower,upper,size,offset.
// LF line ends, a final newline. O(n + gaps).
std::string FormatCsvSolution(const BufferSet& buffers, const std::vector<Bytes>& offsets);

// The same text passed to `sink` about 1 MiB at a time (never held whole:
// at 10^7 rows it is hundreds of megabytes), buffer i at `offset_of(i)`.
// Errors: the sink's first, which stops the writing.
absl::Status WriteCsvSolution(const BufferSet& buffers,
                              absl::FunctionRef<Bytes(std::size_t)> offset_of, TextSink sink);

// The `gaps` field of `b` as FormatCsvSolution writes it: its dead gaps and
// windows in time order, half-open, separated by spaces; "" for none.
// Example: gaps {[2,3]}, windows {[6,7] bytes [0,32)} -> "2-4 6-8@0:32".
std::string CsvGapsField(const Buffer& b);

}  // namespace memplan
