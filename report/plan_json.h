// The JSON plan (schema "memplan.plan/1", see docs/formats.md): what
// `memplan plan --json` writes and `memplan verify` reads back.
//
// Layout (keys in this order; `input_options` only when given, `program`
// only with a program, `msa` only when the plan has MSA statistics, its
// `target`, `mode` and `variant` only when the MSA setup is given):
//   {"schema": "memplan.plan/1", "input",
//    "input_options": {"alias", "dims": {NAME: VALUE, ...}, "regions", "offline_plan"},
//    "algorithm", "time_steps",
//    "lower_bound_bytes", "peak_bytes", "gap_bytes" (peak - lower bound),
//    "verified", "alignment",
//    "packing": {"effort", "time_limited", "members": [{"name", "ran",
//                "peak_bytes" (null when skipped), "reason" (null when it ran),
//                "seconds" (only with PlanJsonExtras::seconds)}],
//                "seconds" (only with PlanJsonExtras::seconds)}
//               (only when `auto` packed the transient pool: Plan::packing),
//    "program": {"ops", "values"},
//    "spaces":  [{"name", "id", "capacity_bytes" (null: unbounded), "peak_bytes",
//                 "alignment" (every offset in the space is a multiple),
//                 "max_live_bytes", "peak_step", "peak_op", "transient": {...}
//                 (these four only with PlanJsonExtras::space_peaks)}],
//    "pools":   [{"name", "lifetime", "space", "offset_bytes", "size_bytes",
//                 "lower_bound_bytes", "buffers", "total_bytes",
//                 "start", "end" (only for pools with a time range),
//                 "capacity_bytes" (only for a default-space pool whose lifetime
//                 has a limit in Plan::pool_capacity)}],
//    "buffers": [{"id", "name", "values", "size", "start", "end", "pool",
//                 "lifetime", "allocations": [{"space", "offset", "start", "end"}]}],
//    "async_copies": [{"buffer", "kind" ("prefetch"|"eviction"), "from_space",
//                      "to_space", "start", "done", "bytes",
//                      "via_space", "via_offset" (only for staged copies)}],
//    "msa": {"target", "mode", "variant", "options" (PlanMsaKnobs),
//            "estimated_time_s", "time_bound_s" (when known),
//            "time_all_default_s", "time_all_fast_s",
//            "prefetches", "evictions", "prefetch_bytes", "eviction_bytes",
//            "max_outstanding_copies",
//            "whole_buffer_copies_only": {"skipped", "estimated_time_without_s"}
//            (only for a plan made for --emit-ir/--emit-hlo that skipped
//            sliced or window prefetches; MsaStats::rewrite_skipped)},
//    "regions": {...}}   (only for plans with execution regions; report/regions_json.h)
// Sizes and offsets are bytes, times are time steps (closed ranges), the msa
// times are seconds. peak_bytes and lower_bound_bytes are the default space's
// transient pool. The text puts each top-level key on its own line and each
// array element on its own line, so plans diff well. docs/formats.md
// describes every field.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "analysis/schedule.h"
#include "io/file_io.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "report/reorder_summary.h"

namespace memplan {

inline constexpr std::string_view kPlanSchema = "memplan.plan/1";

// How the input was loaded (the CLI's --no-alias, --dim, --regions and
// --offline-plan flags), recorded so that `memplan verify` can load the
// input the same way. The plan's --alignment is the top-level "alignment".
struct PlanInputOptions {
  bool alias = true;                          // views and in-place reuse
  std::map<std::string, std::int64_t> dims;   // symbolic dim bindings, each >= 1
  // --regions: ops per region (0: one region); nullopt without --regions.
  // Written as "regions" (null without --regions).
  std::optional<std::int64_t> regions_per;
  // --offline-plan (TFLite models): the model's offline plan fixed offsets
  // (and sub-allocations), which `memplan verify` then checks again.
  // Written as "offline_plan"; plans without the key read as false.
  bool offline_plan = false;
  // --input-shape (ONNX): graph input -> dims. Written as "input_shapes"
  // only when given; plans without the key read as none.
  std::map<std::string, std::vector<std::int64_t>> input_shapes;
  // --reorder: the ops ran in the order schedule/reorder.h chose (it is
  // deterministic, so `memplan verify` reorders again). Written as
  // "reorder"; plans without the key read as false.
  bool reorder = false;
  bool operator==(const PlanInputOptions&) const = default;
};

// The memory space assignment knobs a plan was made with (the `plan` flags
// of docs/msa.md), written as the "options" object of "msa" in this order.
// `memplan verify` re-checks the outstanding-copy limits; the rest is a
// record (the plan's copies and segments are verified as they are).
struct PlanMsaKnobs {
  std::string picker;                        // "cost" or "instruction-count"
  std::int64_t min_overlap_ops = 0;
  std::int64_t max_overlap_ops = 0;
  double min_overlap_ratio = 0;
  double preferred_overlap_ratio = 0;
  double max_overlap_ratio = 0;
  std::int64_t max_outstanding_prefetches = -1;  // -1: unlimited (written as null)
  std::int64_t max_outstanding_evictions = -1;   // -1: unlimited (written as null)
  bool fifo_prefetches = false;
  std::optional<std::int64_t> max_repacks;       // nullopt: automatic (null)
  bool cross_program_prefetch = true;
  bool cross_program_prefetch_freeing = true;
  Bytes fast_memory_alignment = 1;               // as used (lcm with --alignment)
  // --fast-memory and --fast-memory-alignment when given (nullopt: the
  // target's), written as "fast_memory_override" and
  // "fast_memory_alignment_override" (null when not given): `memplan verify`
  // resolves the target again and checks against it with these.
  std::optional<Bytes> fast_memory_override;
  std::optional<Bytes> fast_memory_alignment_override;
  std::string assign_first;                      // "" when not given
  std::vector<std::string> pins;                 // "VALUE[@OP]=SPACE", as given
  double inefficient_ratio = 0;
  std::int64_t while_trip_count = 5;
  // --sliced-prefetch N (nullopt: not given), --sliced-prefetch-min-bytes,
  // --sliced-prefetch-slice-bytes; written as "sliced_prefetch" {max_slices,
  // min_bytes, slice_bytes} only when one of them was given.
  std::optional<std::int64_t> sliced_prefetch;
  Bytes sliced_prefetch_min_bytes = 0;
  Bytes sliced_prefetch_slice_bytes = 0;
  // --window-prefetch BYTES, written as "window_prefetch" only when given
  // (automatic_window_prefetch false: a size, 0 included, was given).
  Bytes window_prefetch = 0;
  bool automatic_window_prefetch = true;
  // --block-prefetch BYTES; written as "block_prefetch_bytes" only when
  // given (automatic_block_prefetch false: a size, 0 included, was given).
  Bytes block_prefetch_bytes = 0;
  bool automatic_block_prefetch = true;
  // --loop-optimizer and --loop-optimizer-min-iterations; written as
  // "loop_optimizer_min_iterations" only with --loop-optimizer.
  bool loop_optimizer = false;
  std::int64_t loop_optimizer_min_iterations = 3;
  // false: --no-loop-optimizer, written as "no_loop_optimizer": true.
  bool automatic_loop_optimizer = true;
};

// How fast memory was planned, written into the "msa" object.
struct PlanMsaSetup {
  std::string target;   // the --target argument (preset name or file), or the default preset
  std::string mode;     // "reference" or "default"
  std::string variant;  // the allocator variant whose assignment was kept ("reference", ...)
  std::optional<PlanMsaKnobs> knobs;  // written as "options"
};

// The order of the ops after --reorder, written as "schedule": {"strategy",
// "input_peak_bytes", "peak_bytes", "lower_bound_bytes" (the transient
// max-live of the input order and of the new one, and the order-independent
// bound), "ops": [{"id", "name"}, ...] in the flattened schedule's order
// (the op's id and OpName)}.
struct PlanReorder {
  std::string strategy;
  Bytes input_peak = 0;
  Bytes peak = 0;
  Bytes lower_bound = 0;
  // With fast memory: written as "fast_memory": {"kept": "reordered" or
  // "input", "reordered_estimated_time_s", "input_order_estimated_time_s"}.
  std::optional<ReorderFastMemoryChoice> fast_memory;
};

// What the plan document records besides the plan itself.
// What a memory-hierarchy plan's portfolio tried (driver/hierarchy_job.h),
// written as "msa": {"hierarchy": {"kept": NAME, "candidates": [{"name",
// "estimated_time_s" (null: does not fit or not run), "not_run" (only when
// not run: why), "does_not_fit" (only when it does not fit: why),
// "cross_program_prefetch": false (only when its time is that of the
// candidate planned without the cross-program prefetch)}],
// "all_slowest_writable_s"}}.
struct PlanHierarchyCandidate {
  std::string name;
  std::optional<double> estimated_s;
  std::string not_run;       // "" when it ran
  std::string does_not_fit;  // why it does not fit ("" when it fits or did not run)
  bool without_cross_program_prefetch = false;
};
struct PlanHierarchySummary {
  std::string kept;
  std::vector<PlanHierarchyCandidate> candidates;
  double all_slowest_writable_s = 0;
  std::string all_slowest_writable_does_not_fit;  // "" when it fits
};

struct PlanJsonExtras {
  std::optional<PlanReorder> reorder;             // written as "schedule" (needs `schedule`)
  std::optional<PlanInputOptions> input_options;  // written as "input_options"
  std::optional<PlanMsaSetup> msa_setup;          // written only when plan.msa is set
  std::optional<PlanHierarchySummary> hierarchy;  // likewise
  // Write each space's peak figures (report/space_peaks.h) into its
  // "spaces" entry: "max_live_bytes", "peak_step", "peak_op" and
  // "transient": {"peak_bytes", "lower_bound_bytes", "peak_step", "peak_op",
  // "buffers"} (steps null when the space holds nothing; ops named as
  // "%result = opcode" from `schedule`, null without one or without an op
  // at the step).
  bool space_peaks = false;
  const FlatSchedule* schedule = nullptr;
  // Write the packing members' wall-clock "seconds" (`--timings`): off by
  // default, since they differ from run to run and the plan is otherwise
  // byte-identical for the same input and options.
  bool seconds = false;
};

// Renders `plan` for `buffers` (parallel to plan.placements). A buffer's
// `values` are the names of its values in `program`; without a program
// (nullptr, e.g. CSV input) they are the value ids as decimal strings.
// Deterministic: the same arguments give the same bytes. Non-finite MSA times
// are written as null (JSON has no NaN); ReadPlanJson rejects them.
std::string WritePlanJson(const Plan& plan, const BufferSet& buffers, const Program* program,
                          const PlanJsonExtras& extras = {});

// The same text passed to `sink` about 1 MiB at a time: the buffers'
// entries are written one by one, never held as a document or as text (at
// 10^7 buffers the text is gigabytes). Errors: the sink's first, which
// stops the writing.
absl::Status WritePlanJsonTo(const Plan& plan, const BufferSet& buffers, const Program* program,
                             const PlanJsonExtras& extras, TextSink sink);

// The "input_options" of a plan document, nullopt when it has none (plans
// written before the key existed). Errors: InvalidArgument, as ReadPlanJson,
// for malformed JSON, a document that is not an object, or malformed options
// (`path: error: /input_options/alias: expected a boolean, found string`, a
// dim value that is not an integer >= 1).
absl::StatusOr<std::optional<PlanInputOptions>> ReadPlanInputOptions(std::string_view text,
                                                                     std::string_view path);

// Parses a plan written by WritePlanJson for the input whose re-analysed
// buffers are `expected` (and, for inputs with one, whose program is
// `program`). Unknown keys are ignored. A space without "alignment" (plans
// written before the key existed) gets the plan's top-level alignment, the
// only one such plans were checked against; a pool without "lifetime" gets
// the lifetime its name spells (such plans had only lifetime-named pools).
// A "regions" object is rebuilt against `program` (report/regions_json.h: names
// resolved, expression texts parsed back).
// Errors: InvalidArgument
//  * `path:line:col: error: ...` for malformed JSON (nlohmann's message);
//  * `path: error: /json/pointer: duplicate key` for a key repeated in one
//    object (also from ReadPlanInputOptions);
//  * `path: error: /json/pointer: ...` for a wrong schema, a missing key or a
//    value of the wrong type or range (e.g. `/buffers/3/allocations/0/offset:
//    expected an integer, found string`, `/alignment: 0 is outside [1,
//    4294967296]`, malformed input_options as ReadPlanInputOptions). Ranges:
//    alignments (top-level and per space) 1..kMaxAlignment; offsets, sizes, capacities, peaks, bounds,
//    byte counts, times and counts 0..kMaxTotalBytes (ir/units.h), space ids
//    >= 0; a copy's buffer must be one of the input's buffers; a pool's
//    lifetime a lifetime name (`/pools/2/lifetime: missing (and the pool name
//    'stage.slab' is not a lifetime)`); in "regions", names that resolve and
//    expressions that parse (`/regions/resources/0/size: "4*%k" is not a size
//    expression (column 4: unknown dim %k)`); "regions" without a program;
//  * the same form when time_steps or a buffer's count, id, name, size, live
//    range or lifetime disagrees with `expected` (the plan is for another
//    input, or the input was loaded differently); these messages end with
//    "; " + `mismatch_note` when it is not empty (e.g. how the input was
//    loaded).
// Everything else (overlaps, pools, copies, ...) is for VerifyPlan to judge.
absl::StatusOr<Plan> ReadPlanJson(std::string_view text, std::string_view path,
                                  const BufferSet& expected, std::string_view mismatch_note = "",
                                  const Program* program = nullptr);

}  // namespace memplan
