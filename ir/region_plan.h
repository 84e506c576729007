// The result of execution-region allocation (regions/, the IREE
// ScheduleAllocation pass): the resources a program's regions use, which
// buffer lives where inside them, and every op lowered to commands with
// explicit (resource, offset, length) ranges and access bits, in the order of
// the host steps that carry the timepoints.
//
// Resources are the allocations of the plan (ir/plan.h): each one is the Plan
// pool of the same name, so a slice's absolute address in the default space
// is pool.offset + slice offset. Produced by regions/, checked by
// verify/region_checks.h, written by the JSON plan and printed in command
// form (--emit-ir).
//
// Example: examples/region.mpir's region @stage gets a slab resource
// "@stage.slab" holding %zeros, %t0 and %t1/%acc (tied) with offsets
// computed by the packing layer, a results resource "@stage.results" for %o,
// and a command list fill, dispatch, dispatch, copy (the update), dispatch
// with waves kept as concurrent blocks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/size_expr.h"
#include "ir/units.h"

namespace memplan {

enum class ResourceKind : std::uint8_t {
  kPool,     // a program-level pool (external, constant, transient, ...) of
             // buffers outside any region allocation; lives the whole run
  kUpload,   // constants (or variables) hoisted out of a region and uploaded
             // once (IREE stream.resource.constants); lives the whole run
  kResults,  // a reservation for escaping region results of one (affinity,
             // lifetime) (IREE stream.resource.alloca + [0,0] subviews)
  kSlab,     // a region's transient slab (alloca before, dealloca after)
};

// "pool", "upload", "results", "slab".
const char* ResourceKindName(ResourceKind kind);

// One buffer (alias set) placed in a resource.
struct Slice {
  BufferId buffer = kNoId;   // index into the BufferSet / Plan::placements
  SizeExpr offset;           // bytes from the resource's start
  SizeExpr size;             // the buffer's size
  Bytes offset_bytes = 0;    // at the evaluation point (ir/dims.h)
  Bytes size_bytes = 0;
  TimeStep start = 0;        // closed live range on the flattened schedule
  TimeStep end = 0;
};

struct Resource {
  std::string name;          // unique; equal to its Plan pool's name
  ResourceKind kind = ResourceKind::kPool;
  Lifetime lifetime = Lifetime::kTransient;
  // Device(s) holding it: "gpu0", or "optimal(gpu0,gpu1)" when several
  // regions on different devices use it; "" for program-level pools.
  std::string affinity;
  std::string region;        // owning region's name without '@' ("" for kPool)
  SizeExpr size;             // total bytes (range-aligned)
  Bytes size_bytes = 0;      // at the evaluation point
  std::vector<Slice> slices; // ascending offset at the evaluation point, then buffer
  // kUpload: true for constants that escape the region (returned by it),
  // false for those only the region reads.
  bool escaping = false;
  // Holds a single item larger than --max-allocation-size (a warning).
  bool over_limit = false;
  // Time range the allocation exists over (program time, closed): whole run
  // for pools and uploads; region start .. last use for results; the region's
  // span for slabs.
  TimeStep start = 0;
  TimeStep end = 0;
  // The memory space holding it: the default space, or a fast level's for a
  // region's fast slab (RegionFastMemory).
  MemorySpace space = kDefaultSpace;
  // The devices that may access its space (RegionFastLevel::devices; "*":
  // any); empty: every device. The region verifier checks every command
  // range against it.
  std::vector<std::string> devices = {};
};

// Access bits of a command's range (IREE's binding access).
enum class Access : std::uint8_t { kRead = 1, kWrite = 2, kReadWrite = 3 };
// "read", "write", "read-write".
const char* AccessName(Access access);

struct CommandRange {
  std::int32_t resource = kNoId;  // index into RegionPlan::resources
  SizeExpr offset;                // bytes from the resource's start
  SizeExpr length;
  Bytes offset_bytes = 0;         // at the evaluation point
  Bytes length_bytes = 0;
  Access access = Access::kRead;
  // The IR value whose data the range holds: for a read, the operand read;
  // for a write, the result written (a tied result for in-place writes).
  // kNoId for a dispatch's scratch range (kReadWrite): it lies in the op's
  // scratch buffer "<op>.scratch", which holds no value, so it carries no
  // data between commands.
  ValueId value = kNoId;
  // Bytes from the start of `value` (or of the scratch buffer), as lowered:
  // `offset` minus the value's place in its resource, kept symbolic for the
  // command form of ranges into captured operands. Not in the JSON plan.
  SizeExpr value_offset;
};

enum class CommandKind : std::uint8_t {
  kFill,        // splat / fill: write a pattern
  kCopy,        // clone, slice, update, copy, transfer (IREE cmd.copy)
  kDispatch,    // dispatch and compute ops: bindings with access bits
  kCall,        // call: like dispatch
  kCollective,  // collective: send range read-only, receive range write-only
  kBarrier,     // barrier on a resource: ordering only, no data movement
  kInvalidate,  // before a transfer whose data comes from another affinity or staging
  kFlush,       // after a transfer whose data goes to another affinity or staging
  kLoad,        // host read of a resource range (resource.load)
  kStore,       // host write into a resource range (resource.store)
  kUpload,      // host: constants written into an upload resource
  kInput,       // the caller provides the program's external inputs (start of run)
  kOutput,      // the caller reads the program's external outputs (end of run)
};
// "fill", "copy", "dispatch", "call", "collective", "barrier", "invalidate",
// "flush", "load", "store", "upload", "input", "output".
const char* CommandKindName(CommandKind kind);

struct Command {
  CommandKind kind = CommandKind::kDispatch;
  OpId op = kNoId;           // the IR op it lowers (kNoId for input/output)
  TimeStep time = 0;         // the op's time on the flattened schedule
  // Commands of one region with the same concurrent >= 0 run at once (one
  // wave); -1: runs alone.
  std::int32_t concurrent = -1;
  std::vector<CommandRange> ranges;
  std::string detail;        // collective kind, transfer target, dispatch opcode, ...
};

// A step of the host timeline, in program order. Each step signals one
// timepoint after waiting on every timepoint in `awaits`.
enum class HostStepKind : std::uint8_t {
  kAlloca,    // reserve `resource` (a slab or results resource)
  kUpload,    // upload the constants of `resource`
  kExecute,   // run region `region`'s commands
  kDealloca,  // release `resource`
  kJoin,      // join timepoints (what downstream users of a region wait on)
  kHost,      // host-side commands (load/store, program input/output)
};
// "alloca", "upload", "execute", "dealloca", "join", "host".
const char* HostStepKindName(HostStepKind kind);

struct HostStep {
  HostStepKind kind = HostStepKind::kHost;
  std::string signal;                // timepoint name it signals, unique ("" for kHost)
  std::vector<std::string> awaits;   // timepoint names, each signalled by an earlier step
  std::int32_t resource = kNoId;     // kAlloca / kUpload / kDealloca
  std::int32_t region = kNoId;       // kExecute: index into RegionPlan::regions
  std::vector<Command> commands;     // kExecute, kUpload, kHost
};

// A copy between memory spaces as a region command (regions/captured_copies.h):
// a captured value the region only reads, copied once by a `copy` command
// from its home range in default memory into bytes [offset, offset + bytes)
// of the region's fast slab `resource`, before its first reader; the region's
// later reads of the value name that fast range. The bytes are the value's
// in the fast slab over [start, end] (the copy's step to its last reader's).
struct RegionCopy {
  ValueId value = kNoId;             // the region parameter read
  BufferId buffer = kNoId;           // its buffer (homed outside the region)
  Bytes bytes = 0;                   // the value's size (static)
  std::int32_t resource = kNoId;     // the fast slab (index into RegionPlan::resources)
  SizeExpr offset;                   // bytes from the fast slab's start
  Bytes offset_bytes = 0;            // at the evaluation point
  MemorySpace from_space = kDefaultSpace;
  MemorySpace to_space = kAlternateSpace;
  TimeStep start = 0;                // the copy's step (its first reader's)
  TimeStep end = 0;                  // its last reader's step
  double copy_s = 0;                 // seconds one copy takes
  double saves_s = 0;                // net seconds a run saves: reads' gain minus copy_s
};

struct RegionInfo {
  std::string name;                  // region computation name without '@'
  ComputationId computation = kNoId;
  OpId execute = kNoId;              // the execute op running it
  std::string affinity;              // "" when the region declares none
  // Runs at most once per run of the program: executed from an initializer
  // and not inside a while (whose body runs once per iteration).
  bool once = false;
  std::vector<std::int32_t> resources;  // every resource its commands touch, ascending
  SizeExpr slab_size;                // sum of its slab resources' sizes
  Bytes slab_bytes = 0;              // at the evaluation point
  Bytes slab_lower_bound = 0;        // max live bytes of its slab slices (evaluation point)
  std::string downstream;            // timepoint later users of the region wait on
  // With fast memory (RegionPlanOptions::fast_memory): the estimated seconds
  // of one run of the region's commands as planned and with every slice in
  // default memory (the cost model of msa/cost_model.h); 0 otherwise.
  double estimated_s = 0;
  double all_default_s = 0;
  // Captured values copied into its fast slabs, in command order.
  std::vector<RegionCopy> copies = {};
};

// A captured value a region only reads that would gain from a copy into a
// fast level (regions/captured_copies.h): rated by the driver per level.
struct CopyCandidate {
  ComputationId region = kNoId;      // the region computation reading it
  ValueId value = kNoId;             // its parameter
  BufferId buffer = kNoId;
  Bytes bytes = 0;
  double copy_s = 0;                 // seconds one copy into the level takes
  double saves_s = 0;                // reads' gain in the level minus copy_s (> 0)
};

// One memory level region slabs may move to, faster than the default space.
struct RegionFastLevel {
  MemorySpace space = kAlternateSpace;
  // The level's name, which names its slabs "<region>.<suffix>": "fast" for
  // the two-space --fast-memory case, the level's name ("scratchpad") on a
  // hierarchy target.
  std::string suffix = "fast";
  Bytes capacity = 0;                // bytes of the space
  Bytes alignment = 1;               // its slab offsets are multiples (with offset_alignment)
  // Devices (region affinities, "host" for none; "*": any) that may access
  // it; empty: every device. A region on another device gets no slab here.
  std::vector<std::string> devices = {};
  // Per BufferId: seconds one run of the program saves when the buffer is in
  // this level instead of the default space (0: never chosen here).
  std::vector<double> benefit;
  // Captured values worth a copy into this level, by (region, value).
  std::vector<CopyCandidate> copies = {};
};

// Fast memory for region slabs: per region and level, fastest first, the
// slab slices not taken by a faster level that save the most run time per
// byte go to a slab "<region>.<suffix>" in the level's space
// (regions/fast_slab.h); result reservations, uploads and captured buffers
// stay in default memory, though a captured value a region only reads may
// get a fast copy (CopyCandidate, RegionCopy; regions/captured_copies.h).
struct RegionFastMemory {
  std::vector<RegionFastLevel> levels;  // fastest first; non-empty
};

// True if a region on `affinity` ("" for none: the host) may use `level`.
bool RegionMayUse(const RegionFastLevel& level, const std::string& affinity);

// The options the plan was made with (echoed into the JSON plan).
struct RegionPlanOptions {
  Bytes offset_alignment = 64;       // every slice offset is a multiple
  Bytes range_alignment = 64;        // every slice and resource size is padded to a multiple
  std::optional<Bytes> max_allocation_size;  // split resources above this
  std::string pack = "auto";         // "in-order" (IREE's layout) or a packing algorithm name
  // pack == "exact": the search's wall-clock limit per slab (seconds; 0: its
  // default, kExactDefaultTimeLimitSeconds). From --time-limit; not echoed.
  double pack_time_limit_seconds = 0;
  // Fast slabs (--fast-memory, --target); not echoed (the plan's spaces and
  // resources say where everything is).
  std::optional<RegionFastMemory> fast_memory = std::nullopt;
};

struct RegionPlan {
  RegionPlanOptions options;
  std::vector<Resource> resources;
  std::vector<RegionInfo> regions;
  std::vector<HostStep> steps;       // program order
  std::vector<std::string> warnings; // e.g. an item over --max-allocation-size
  // With fast memory: the estimated seconds of one run of the program as
  // planned and with everything in default memory (RegionInfo::estimated_s).
  double estimated_s = 0;
  double all_default_s = 0;
};

}  // namespace memplan
