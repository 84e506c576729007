// The input of memory space assignment, derived once from a program and its
// analysis: per buffer, what alternate memory may be used for (the
// *policy*) and the time steps at which ops read or write it (its
// *accesses*), plus the per-computation time line the pickers work on.
//
// Policies (the required assignments of msa.md §3, decided per buffer):
//  * kPinnedAlternate: pinned to space 1: one alternate chunk for the whole
//    live range, or the assignment fails.
//  * kOtherSpace: pinned to a space >= 2: not planned here.
//  * kDefaultOnly: pinned to space 0; zero-size; larger than the fast memory;
//    or reaching into an execution region or an async pair (a member read
//    or produced by execute or an async start/done: their commands move the
//    data themselves). Such buffers stay in default memory — never a wrong
//    plan. Buffers crossing `call`, `while` and `conditional` are planned:
//    a callee is straight-line code on the caller's time line, and the ops
//    of a loop's condition and body or of a branch access loop-carried,
//    passed-in and result buffers at their own steps (the while, call or
//    conditional op itself reads its operands at its own step, saving
//    nothing, and writes no data); the walker keeps such buffers legal
//    across loops and branches (msa/control_scopes.h). A branch result
//    shares one buffer with the conditional's result (analysis/alias_sets.h),
//    so every branch writes the same place; where aliasing ties a result to
//    an entry parameter or entry result, kReadCopies below keeps every
//    write in default memory.
//  * kReadCopies: external, constant, variable and staging buffers, and any
//    buffer holding an entry parameter or entry result: its home is default
//    memory, every write happens there (so the default copy is always
//    current, also at the program boundary), and reads may be served by
//    prefetched copies. Exception (MsaBuffer::boundary): an entry
//    parameter's or result's in-place writes may happen in alternate memory
//    when an eviction brings the data back before the program ends.
//  * kAnywhere: every other transient buffer defined by an op whose live
//    range ends at its last access: it may be produced in alternate memory,
//    kept there, evicted and prefetched back.
// Scratch buffers (analysis/analyze.h) are listed separately: memplan's
// reserved scoped memory is the scratch buffer of an op placed in alternate
// memory during that op's step, when it fits.
//
// Example:
//   entry func @main(%p: f32[4]) {     time
//     %a = exp(%p) : f32[4]             0
//     %b = relu(%a) : f32[4] tied(%a)   1
//     %c = add(%b, %p) : f32[4]         2
//     return %c
//   }
// gives p: kReadCopies, accesses {0 read, 2 read}; a/b (one buffer):
// kAnywhere, defined_by_op, accesses {0 write, 1 read+write, 2 read};
// c: kReadCopies (entry result), accesses {2 write, alternate_ok = false}.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "ir/program.h"
#include "ir/units.h"
#include "msa/cost_model.h"
#include "msa/control_scopes.h"
#include "msa/prefetch_picker.h"

namespace memplan {

enum class AltPolicy : std::uint8_t {
  kDefaultOnly,
  kReadCopies,
  kAnywhere,
  kPinnedAlternate,
  kOtherSpace,
};

// All accesses of one buffer at one time step.
struct BufferAccess {
  TimeStep time = 0;
  bool write = false;         // an op at this step defines or writes it in place
  bool alternate_ok = false;  // this step may use an alternate-memory copy
  double saving_s = 0;        // seconds its reads here save in alternate memory
  double used_bytes = 0;      // bytes the ops here read and write of it (CostModel)
  bool control = false;       // only a while, call or conditional op reads it here (no data)
};

struct MsaBuffer {
  std::string_view name;                // Buffer::name (the analysis outlives the problem)
  AltPolicy policy = AltPolicy::kDefaultOnly;
  Bytes size = 0;
  TimeStep start = 0;
  TimeStep end = 0;
  bool defined_by_op = false;           // accesses.front() is the definition at `start`
  std::vector<BufferAccess> accesses;   // increasing time
  // Cross-program prefetch eligibility: an entry parameter whose every read
  // looks like a weight (see CrossProgramPrefetchCandidate).
  bool weight_parameter = false;
  double reader_output_bytes = 0;       // sum of result sizes of ops reading it (tie-break)
  double memory_boundedness = 0;        // CostModel::MemoryBoundedness
  bool assign_first = false;            // allocated before the others (msa/user_overrides.h)
  // Its storage outlives the run (a lifetime packed without reuse: external,
  // constant, variable), so a copy may refill it after its live range.
  bool outlives_run = false;
  // Its storage holds a constant (Lifetime::kConstant): a weight the program
  // holds, such as an ONNX initializer or a `constant` entry parameter — not
  // a model input (external lifetime) fed in per run.
  bool constant = false;
  // It holds an entry parameter: its data is in default memory before the
  // first op, so a prefetch may be issued before that op (copy start -1).
  bool entry_parameter = false;
  // A kReadCopies buffer that holds an entry parameter or result (external
  // or transient lifetime): only the program boundary needs its data in
  // default memory, so its in-place writes (not its definition) may happen
  // in alternate memory when an eviction restores the default copy before
  // the next read from default memory and before its live range ends.
  bool boundary = false;
  // A window of it may be prefetched for an op reading it (msa/window_prefetch.h):
  // not pinned to a space, has values and bytes, and touches no control flow,
  // region or async op (unlike `policy`, its size does not matter).
  bool windowable = false;
};

struct MsaProblem {
  std::vector<MsaBuffer> buffers;   // per BufferId
  std::vector<BufferId> scratch;    // scratch buffers, by time then id
  LocalTimeline timeline;
  ControlScopes scopes;
  std::vector<ComputationSpan> spans;  // per ComputationId (analysis/schedule.h)
  TimeStep time_steps = 1;
};

// Builds the problem. O(values + operands + ops log ops). `fast_memory_bytes`
// only decides which buffers are too large to ever fit.
MsaProblem BuildMsaProblem(const Program& program, const ProgramAnalysis& analysis,
                           const CostModel& cost, Bytes fast_memory_bytes);

}  // namespace memplan
