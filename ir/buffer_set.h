// The packing problem's input: buffers (alias sets) with sizes and closed live
// ranges on the flattened schedule. Produced by analysis/ from a Program, or
// read directly from a lifetime CSV (io/csv/reader.h).
//
// Example: the MiniMalloc row `b1,0,3,4` (half-open [0,3)) becomes
//   Buffer{name = "b1", size = 4, start = 0, end = 2}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/buffer_name.h"
#include "ir/compact_optional.h"
#include "ir/compact_vector.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// A window of MiniMalloc's `gaps` column (`L-U@lo:hi`): during the closed
// steps `steps` the buffer occupies only bytes [offset + lo, offset + hi) of
// its extent, 0 <= lo < hi <= size. memplan's packers read a movable
// buffer as fully live there (conservative, always valid); fixed buffers
// are placed around and checked for collisions by the bytes they hold
// (HeldPieces), and the plan's reported lower bound and live profiles count
// hi - lo bytes there (driver/pools.h). The verifier frees the other bytes
// (VerifyOptions::input_gaps), so a solution that uses them (e.g.
// MiniMalloc's) verifies; the CSV solution (io/csv/solution_writer.h)
// repeats the window.
// Example: `2-4@0:8` on a 16-byte buffer -> {steps = [2,3], lo = 0, hi = 8}.
struct OccupancyWindow {
  StepRange steps;
  Bytes lo = 0;
  Bytes hi = 0;
  bool operator==(const OccupancyWindow&) const = default;
};

// A sub-allocation stated by the input: the buffer lives inside another
// buffer's bytes, which whoever addresses the container lays out (e.g. an
// NPU command stream compiled by Arm's Vela addresses its input and output
// inside its scratch area: TFLite offline plans, driver/tflite_offline.h).
// Its chunk is [container's offset + offset, ... + size) at every step it is
// live, and the container is live then too; its bytes count as the
// container's (planners give it no chunk of its own, lower bounds and live
// profiles skip it), and the verifier checks that it stays inside.
// Example: a 9216-byte input inside a 74464-byte scratch area at byte 0 ->
// {container = the scratch area's id, offset = 0}.
struct SubAllocation {
  BufferId container = kNoId;
  Bytes offset = 0;                   // bytes from the container's first byte
  bool operator==(const SubAllocation&) const = default;
};

// The fields of a Buffer that almost every buffer leaves empty (see Buffer
// for each): kept apart, behind one pointer, so that they cost 8 bytes per
// buffer instead of 40.
struct BufferExtras {
  CompactVector<TimeStep> use_times;
  CompactVector<StepRange> gaps;
  CompactOptional<Bytes> fixed_offset;
  CompactVector<OccupancyWindow> windows;
  std::optional<SubAllocation> inside;
};

// One buffer (alias set). At 10^6-10^7 buffers the record's size is most of
// what a plan costs, so its rarely used fields live in one BufferExtras
// allocated on the first write to one of them (`extras`, read and written
// through the accessors), the alias-set members take one word
// (ir/compact_vector.h) and the name 8 bytes (ir/buffer_name.h): 64 bytes
// in all, against 216 with std:: containers inline.
struct Buffer {
  BufferName name;
  CompactVector<ValueId> values;      // alias-set members; empty for CSV input
  Bytes size = 0;                     // bytes of storage
  Bytes alignment = 1;                // required offset alignment (>= 1)
  TimeStep start = 0;                 // first live time step (inclusive)
  TimeStep end = 0;                   // last live time step (inclusive), >= start
  Lifetime lifetime = Lifetime::kTransient;
  CompactOptional<MemorySpace> space; // pinned memory space, if any
  // Empty (nullptr) until a rare field is written; use the accessors.
  BoxedOptional<BufferExtras> extras = std::nullopt;

  // Sorted, unique times of ops reading the buffer.
  const CompactVector<TimeStep>& use_times() const { return Extras().use_times; }
  CompactVector<TimeStep>& mutable_use_times() { return MutableExtras().use_times; }
  // Dead gaps: sorted, disjoint, non-adjacent closed ranges strictly inside
  // (start, end) where the buffer holds no data, so another buffer may use
  // its bytes then. They come from conditionals: a branch that has not yet
  // defined the buffer's value (the op's result) holds nothing of it, because
  // only the taken branch runs (analysis/analyze.h); or from a lifetime CSV's
  // `gaps` column (io/csv/reader.h). The buffer is *live* at every other step
  // of [start, end]. Empty for most buffers.
  const CompactVector<StepRange>& gaps() const { return Extras().gaps; }
  CompactVector<StepRange>& mutable_gaps() { return MutableExtras().gaps; }
  // A position the buffer must take in its home space, in bytes (MiniMalloc's
  // `offset` column; a multiple of `alignment`); empty: the planner chooses.
  const CompactOptional<Bytes>& fixed_offset() const { return Extras().fixed_offset; }
  CompactOptional<Bytes>& mutable_fixed_offset() { return MutableExtras().fixed_offset; }
  // Partial occupancy windows, sorted, disjoint from each other and from
  // `gaps`, within [start, end] (CSV input only; see OccupancyWindow).
  const CompactVector<OccupancyWindow>& windows() const { return Extras().windows; }
  CompactVector<OccupancyWindow>& mutable_windows() { return MutableExtras().windows; }
  // Set when the buffer is a sub-allocation inside another (SubAllocation);
  // empty for every buffer but those of a TFLite model's --offline-plan.
  const std::optional<SubAllocation>& inside() const { return Extras().inside; }
  std::optional<SubAllocation>& mutable_inside() { return MutableExtras().inside; }

 private:
  const BufferExtras& Extras() const {
    static const BufferExtras kNone;
    return extras ? *extras : kNone;
  }
  BufferExtras& MutableExtras() { return extras ? *extras : extras.emplace(); }
};
// A larger record costs 10 MB per byte at 10^7 buffers.
static_assert(sizeof(void*) != 8 || sizeof(Buffer) <= 64);

// The parts of the closed step range [first, last] where `buffer` is live:
// [first, last] minus its dead gaps, in time order (empty if last < first).
// Example: gaps {[2,3]}, range [0,5] -> {[0,1], [4,5]}. O(gaps).
std::vector<StepRange> LivePieces(const Buffer& buffer, TimeStep first, TimeStep last);

// A part of a buffer's live steps over which it holds the same bytes: bytes
// [offset + lo, offset + hi) of its chunk during the closed steps `steps`.
struct HeldPiece {
  StepRange steps;
  Bytes lo = 0;
  Bytes hi = 0;
  bool operator==(const HeldPiece&) const = default;
};

// What `buffer` holds over [start, end]: its live pieces (LivePieces) split
// at its occupancy windows, holding [0, size) outside the windows and
// [w.lo, w.hi) in window w, in time order. Example: size 16, steps [0,9], gaps
// {[2,3]}, windows {[6,7] bytes [0,8)} -> {[0,1] [0,16)}, {[4,5] [0,16)},
// {[6,7] [0,8)}, {[8,9] [0,16)}. O(gaps + windows).
std::vector<HeldPiece> HeldPieces(const Buffer& buffer);

// One part of a control region: the closed span [first, last] of the
// flattened schedule that one called computation occupies (with everything it
// calls in turn).
struct RegionPart {
  std::string name;                   // e.g. "body @body"
  TimeStep first = 0;
  TimeStep last = 0;
};

// A while loop (parts: its condition, then its body; both run many times)
// or a conditional (parts: its branches in order; exactly one runs) on the
// flattened schedule. The parts are contiguous and in order, and the op's
// own step follows the last one. Computations without ops give no part.
struct ControlRegion {
  enum class Kind : std::uint8_t { kLoop, kBranches };
  Kind kind = Kind::kLoop;
  std::string name;                   // e.g. "while %h"
  std::vector<RegionPart> parts;
};

// Where the fields of one lifetime-CSV row are (io/csv/reader.h). A row
// without an `offset` (`gaps`, `alignment`) column has `offset` (`gaps`,
// `alignment`) at its first field.
struct CsvRowFields {
  SourceLocation id;
  SourceLocation lower;
  SourceLocation upper;
  SourceLocation size;
  SourceLocation offset;
  SourceLocation gaps;
  SourceLocation alignment;
  bool operator==(const CsvRowFields&) const = default;
};

// Where a lifetime CSV's rows are, in memory that does not grow with the
// usual file: a row on the line after the previous row (the header for the
// first), its fields written as the values print (decimal numbers without
// leading zeros, no blanks around fields, no gaps) is located by its values
// alone (CsvFieldsOf, io/csv/reader.h); only the other rows are stored.
struct CsvRowIndex {
  std::int64_t header_line = 0;  // 0: the buffers are not from a lifetime CSV
  struct Stored {
    std::int64_t row = 0;        // index into BufferSet::buffers
    std::int64_t line = 0;       // unclamped (fields.id.line is clamped to int32)
    CsvRowFields fields;
  };
  std::vector<Stored> stored;    // by row, ascending
};

struct BufferSet {
  std::string input;                  // where the buffers came from
  TimeStep time_steps = 0;            // every live range lies in [0, time_steps)
  std::vector<Buffer> buffers;        // BufferId = index
  std::vector<ControlRegion> control_regions;  // empty for CSV input
  // For a lifetime CSV: its header's column names in file order (e.g. id,
  // lower, upper, size, gaps), which the CSV solution repeats; empty for
  // other inputs.
  std::vector<std::string> csv_columns;
  // For a lifetime CSV: where each buffer's row and fields are in the file,
  // so errors about a row point at the field they are about
  // (CsvFieldsOf); header_line 0 for other inputs.
  CsvRowIndex csv_rows;
};

// Whether some movable (no fixed offset) transient buffer of the default
// memory has dead gaps or occupancy windows: the exact search reads such a
// buffer as live over its whole range, so its proofs (infeasible, optimal)
// hold for that conservative reading only, and reports must say so. O(n).
bool ExactSearchReadsGapsAsLive(const BufferSet& buffers);

}  // namespace memplan
