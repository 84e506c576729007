// Fast-memory (memory space assignment) flags of `plan` and `sweep`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "driver/msa_job.h"

namespace memplan::cli {

// Fast-memory (memory space assignment) flags of `plan`.
struct MsaFlags {
  std::string fast_memory;
  std::string target;
  std::int64_t max_outstanding_prefetches = -1;
  std::int64_t max_outstanding_evictions = -1;
  std::string picker = "cost";
  std::string mode = "default";
  std::int64_t max_repacks = 0;
  std::int64_t trip_count = 5;
  bool fifo = false;
  bool no_cross_program_prefetch = false;
  bool no_cross_program_prefetch_freeing = false;
  std::int64_t min_overlap_ops = 2;
  std::int64_t max_overlap_ops = 10;
  std::string min_overlap_ratio = "0.8";
  std::string preferred_overlap_ratio = "1.5";
  std::string max_overlap_ratio = "10";
  std::string fast_memory_alignment;
  std::string assign_first;
  std::vector<std::string> pins;  // VALUE[@OP]=default|alternate
  std::string inefficient_ratio = "0";
  std::int64_t sliced_prefetch = 0;          // most slices per prefetch
  std::string sliced_prefetch_min_bytes = "0";
  std::string sliced_prefetch_slice_bytes = "0";
  std::string window_prefetch = "0";          // window bytes, 0: none
  std::string block_prefetch = "0";          // bytes of the block (0: off)
  bool loop_optimizer = false;               // the memory-bound loop optimizer
  bool no_loop_optimizer = false;            // nor default mode's automatic try
  std::int64_t loop_optimizer_min_iterations = 3;
  std::string emit_ir;
  std::string emit_hlo;
  // Set by AddMsaFlags: which options were given.
  const CLI::Option* emit_ir_option = nullptr;
  const CLI::Option* emit_hlo_option = nullptr;
  const CLI::Option* fast_memory_option = nullptr;
  const CLI::Option* target_option = nullptr;
  std::vector<const CLI::Option*> knobs;  // apply only with fast memory
  const CLI::Option* max_repacks_option = nullptr;
  const CLI::Option* alignment_option = nullptr;
  const CLI::Option* sliced_prefetch_option = nullptr;
  const CLI::Option* window_prefetch_option = nullptr;
  const CLI::Option* block_prefetch_option = nullptr;
  const CLI::Option* loop_optimizer_option = nullptr;
  const CLI::Option* loop_min_iterations_option = nullptr;
  std::vector<const CLI::Option*> count_picker_knobs;  // --picker instruction-count only
  std::vector<const CLI::Option*> cost_picker_knobs;   // --picker cost only
};

// Adds the fast-memory flags (--fast-memory, --target, the MSA knobs,
// --emit-ir) to `cmd`.
void AddMsaFlags(CLI::App* cmd, MsaFlags& flags);

// The MSA job options, or nullopt when no fast memory is planned.
// Errors: a knob without --fast-memory/--target (it would be ignored), an
// empty --target, a bad size, picker or mode.
absl::StatusOr<std::optional<MsaJobOptions>> ToMsaOptions(const MsaFlags& flags);

}  // namespace memplan::cli
