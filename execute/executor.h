// The plan executor: runs a plan on real bytes, as a second check of a plan
// that shares no code with the planners or the verifier (it reads ir/ types
// only and derives the schedule, the storage sharing and the data flow from
// the program itself).
//
// It keeps one byte arena per memory space (execute/arena.h), as large as
// the highest byte the plan uses there, and runs the program:
//  * the caller writes every entry parameter before step 0;
//  * each op, at its time step (its place in the flattened schedule: the
//    initializers, then the entry; a called computation's ops before the op
//    calling it; equal waves share a step), checks that every operand's bytes
//    (its `%x[OFFSET for LENGTH]` range when given) hold what their producer
//    wrote, writes a pattern derived from the write (result, op, run) over
//    each result's bytes — views write nothing (they are their operand's
//    bytes); an in-place result over an operand range writes that range; a
//    result that gathers operands leaves their slices to their producers —
//    writes its scratch buffer ("<op>.scratch"), then checks again the
//    operands that share no storage with its results (a result written over
//    an operand still being read is a clobber);
//  * a value lives where its buffer's segment covering the step puts it (a
//    segment outside the default space first: that is the copy ops use),
//    at its own byte offset in the buffer (from ties, views, gathers and
//    control flow, derived here);
//  * async copies of the plan move real bytes: at the start of step `done`,
//    before its ops, the buffer's bytes are copied from its `from_space`
//    segment (as held after step done - 1) to its `to_space` segment; a
//    window prefetch (Plan::window_prefetches) likewise copies its buffer's
//    bytes [0, bytes) into its window chunk, and the op it serves checks
//    them there with its operands (the kernel streams the rest through the
//    window, which the executor does not model byte by byte);
//  * while loops run their condition and body min(trip count, 2) times (2
//    when unknown, 0 for a trip count of 0) and the condition once more;
//    every branch of a conditional runs, in order, each on the arguments as
//    they were before the first (only one runs for real; running all checks
//    every branch); call and execute run their callee;
//  * with a region plan, an `execute` runs its region's lowered commands
//    instead of its ops (wave by wave: every read range of a wave is checked
//    before its writes), and upload steps run before step 0;
//  * at the end, the entry's results are checked (the caller reads them).
// A lifetime CSV (no program) runs as: each buffer written when a live piece
// begins and checked when it ends (dead gaps free its bytes; an occupancy
// window `@LO:HI` keeps only those bytes), writes of a step before checks.
//
// Cost: memory = the arenas (the highest offset + size used per space, at
// most ExecuteOptions::max_arena_bytes together) + O(buffers + values +
// writes); time = O(bytes written + bytes checked) at memset/memcmp speed
// plus O(log n) per write for the shadow, with loops run at most twice.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

struct ExecuteOptions {
  // The arenas together may take at most this many bytes (default 4 GiB).
  Bytes max_arena_bytes = Bytes{4} << 30;
  // Iterations run of a while loop (fewer when its trip count is smaller).
  std::int64_t max_loop_iterations = 2;
};

struct ExecuteReport {
  std::int64_t ops = 0;          // op executions (an op in a loop counts each run)
  std::int64_t commands = 0;     // region commands run
  std::int64_t copies = 0;       // async copies performed
  std::int64_t writes = 0;       // data writes (results, inputs, scratch, command ranges)
  Bytes bytes_written = 0;
  Bytes bytes_checked = 0;
  Bytes arena_bytes = 0;         // all arenas together
};

// Runs `plan` for `buffers` (the input's buffers, parallel to
// plan.placements) and `program` (null for a lifetime CSV). Errors:
//  * FailedPrecondition when a read finds other bytes than its producer
//    wrote — `op %y (step 4) reads %x: byte 1032 of default memory (byte 8
//    of %x, at [1024, 2048) there) holds data of %z (written by op %z at
//    step 3), not of %x (written by op %x at step 1)` — or when the plan
//    gives a value no place at a step it is used, or a copy no source or
//    destination segment;
//  * InvalidArgument when the arenas would exceed options.max_arena_bytes,
//    or the program's schedule or storage sharing disagrees with the plan
//    (the plan is for another input).
absl::StatusOr<ExecuteReport> ExecutePlan(const BufferSet& buffers, const Plan& plan,
                                          const Program* program,
                                          const ExecuteOptions& options = {});

}  // namespace memplan
