// memplan's public C++ API, part 2: planning a program and reading the plan.
//
// Plan() places every buffer of a Program (memplan/program.h): its memory
// space, pool and byte offset over each segment of its live range, and with
// fast memory the asynchronous copies (prefetches and evictions) between the
// default and the alternate memory. Every plan is checked by the independent
// verifier before Plan() returns it. Times are logical time steps (positions
// in the flattened schedule); sizes and offsets are bytes; estimated times are
// seconds.
//
// Example:
//   absl::StatusOr<memplan::api::Program> program = memplan::api::LoadFile("model.onnx");
//   memplan::api::Options options;
//   options.fast_memory_bytes = 1 << 20;           // 1 MiB of fast memory
//   absl::StatusOr<memplan::api::Result> plan = memplan::api::Plan(*program, options);
//   for (const memplan::api::PlannedBuffer& b : plan->buffers)
//     for (const memplan::api::Segment& s : b.segments)
//       std::printf("%s %s+%lld [%lld,%lld]\n", b.name.c_str(), s.space.c_str(),
//                   (long long)s.offset, (long long)s.start, (long long)s.end);
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "memplan/program.h"

namespace memplan::api {

// What to plan and how hard to try; the defaults are `memplan plan`'s.
struct Options {
  // Packing algorithm (docs/packing.md): "auto" (the portfolio), "exact",
  // "best-fit-spatial", "skyline-area", "online-best-fit", ...
  std::string algorithm = "auto";
  // How hard "auto" works: "fast", "default" or "max".
  std::string effort = "default";
  // Wall-clock limit for "auto" and "exact", seconds; 0 = none.
  double time_limit_seconds = 0;
  // Every offset is a multiple of this many bytes (1 to 2^32).
  std::int64_t alignment = 1;
  // Default-memory capacity in bytes: Plan() fails (ResourceExhausted) when
  // the plan does not fit.
  std::optional<std::int64_t> capacity;
  // Capacity of the transient pool alone (the activations: `--capacity
  // transient=N`), whatever the constants take.
  std::optional<std::int64_t> transient_capacity;
  // Fast (alternate) memory: its size in bytes and/or a target (a preset
  // name listed by `memplan targets`, or a JSON file; docs/msa.md). Either
  // one turns memory space assignment on.
  std::optional<std::int64_t> fast_memory_bytes;
  std::optional<std::string> target;
};

// One piece of a buffer's placement: from `start` to `end` (closed, time
// steps) it occupies [offset, offset + size) of `space`.
struct Segment {
  std::string space;  // "default" or "alternate"
  std::int64_t offset = 0;
  std::int64_t start = 0;
  std::int64_t end = 0;
};

struct PlannedBuffer {
  std::string name;                 // its first value's name (CSV: the row id)
  std::int64_t size = 0;            // bytes
  Lifetime lifetime = Lifetime::kTransient;
  std::string pool;                 // "transient", "constant", ...
  std::vector<std::string> values;  // the values sharing this storage
  std::vector<Segment> segments;    // in time order; one without fast memory
};

// An asynchronous copy between memory spaces: copy-start at `start`,
// copy-done at `done` (time steps), moving `bytes` bytes. A slice of a
// sliced prefetch (docs/msa.md, "Sliced prefetch") moves the buffer's bytes
// [slice_offset, slice_offset + bytes) and is slice `slice_index` of
// `slice_count`; a whole-buffer copy is slice 0 of 1 at offset 0. A window
// prefetch (docs/msa.md, "Window prefetch") has `window` set: it copies the
// buffer's first `bytes` bytes into [window_offset, window_offset + bytes)
// of `to_space`, reserved from `start` until op `window_op` (at step `done`)
// has read them through its operand `window_operand`; it opens no segment.
// A block prefetch (docs/msa.md, "Block prefetching") has `block` set: it
// fills a weight's slot in the block reserved by --block-prefetch.
struct Copy {
  enum class Kind { kPrefetch, kEviction };
  Kind kind = Kind::kPrefetch;
  std::string buffer;  // PlannedBuffer::name
  std::string from_space;
  std::string to_space;
  std::int64_t start = 0;
  std::int64_t done = 0;
  std::int64_t bytes = 0;
  std::int64_t slice_index = 0;
  std::int64_t slice_count = 1;
  std::int64_t slice_offset = 0;  // bytes into the buffer
  bool window = false;
  std::string window_op;             // the reading op's name (its first result's), else its id
  std::int64_t window_operand = 0;   // operand position in that op
  std::int64_t window_offset = 0;    // the window chunk's first byte in to_space
  bool block = false;
  // A staged copy (memory hierarchies, docs/msa.md): its first leg copies
  // from_space -> via_space into the chunk at via_offset (bytes), its second
  // via_space -> to_space. "" for a copy over one link.
  std::string via_space;
  std::int64_t via_offset = 0;
};

struct Pool {
  std::string name;   // "transient", "constant", ... or a region resource
  std::string space;  // "default" or "alternate"
  Lifetime lifetime = Lifetime::kTransient;
  std::int64_t offset = 0;       // base within its space, bytes
  std::int64_t size = 0;         // bytes the pool spans
  std::int64_t lower_bound = 0;  // max live bytes of its buffers
};

// A verified plan.
class Result {
 public:
  std::string algorithm;          // the packing algorithm that won
  std::int64_t time_steps = 0;
  // The transient pool of the default memory: its extent and the max-live
  // lower bound no packing can go below.
  std::int64_t transient_peak = 0;
  std::int64_t lower_bound = 0;
  std::vector<PlannedBuffer> buffers;  // one per buffer, in the program's buffer order
  std::vector<Copy> copies;            // by start time
  std::vector<Pool> pools;
  // With fast memory: the estimated run time and a lower bound on the
  // estimated time of any plan with this fast memory (seconds).
  std::optional<double> estimated_time_s;
  std::optional<double> time_bound_s;

  // The summary `memplan plan` prints, and the JSON plan `memplan plan
  // --json` writes (docs/formats.md), byte for byte.
  const std::string& summary() const;
  const std::string& json() const;

  struct Impl;
  explicit Result(std::shared_ptr<const Impl> impl);
  const Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<const Impl> impl_;
};

// Plans `program`. Errors: InvalidArgument for bad options (an unknown
// algorithm, effort or target, an alignment outside [1, 2^32], fast memory
// for a lifetime CSV); ResourceExhausted `<name>: error: ...` when the plan
// does not fit a capacity (the message says by how much); Internal if the
// plan fails verification (a planner bug; never returned as a plan).
absl::StatusOr<Result> Plan(const Program& program, const Options& options = {});

// Checks `result` against `program` again with the independent verifier
// (verify/): every buffer placed over its whole live range, no two live
// buffers overlapping in one space, alignments, capacities, copy limits.
// Errors: FailedPrecondition naming the first broken rule.
absl::Status Verify(const Program& program, const Result& result);

// What Execute() did.
struct ExecuteReport {
  std::int64_t ops = 0;            // op executions
  std::int64_t copies = 0;         // async copies performed
  std::int64_t bytes_written = 0;
  std::int64_t bytes_checked = 0;  // bytes read back and found intact
};

// Runs the plan on real byte arenas (docs/execute.md): every op writes a
// pattern into its results and checks that its operands still hold what
// their producers wrote. Errors: FailedPrecondition naming the first read
// that found other data; InvalidArgument when the arenas would exceed the
// executor's limit.
absl::StatusOr<ExecuteReport> Execute(const Program& program, const Result& result);

// Writes result.json() to `path` atomically. Errors: those of writing the
// file (InvalidArgument for a missing directory, ...).
absl::Status WriteJson(const Result& result, const std::string& path);

}  // namespace memplan::api
