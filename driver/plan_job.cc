#include "driver/plan_job.h"

#include <filesystem>
#include <utility>
#include <vector>

#include "driver/summary.h"
#include "io/file_io.h"
#include "io/html_map.h"
#include "io/json_plan.h"
#include "io/svg_map.h"
#include "ir/text_printer.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

// Fails early (before any work) when an output's directory does not exist.
absl::Status CheckOutputPath(const std::optional<std::string>& path) {
  if (!path) return absl::OkStatus();
  std::filesystem::path parent = std::filesystem::path(*path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
    return absl::InvalidArgumentError(
        *path + ": error: cannot write: directory '" + parent.string() + "' does not exist");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyAgainst(const BufferSet& buffers, const Plan& plan,
                           std::int64_t max_outstanding_prefetches,
                           std::int64_t max_outstanding_evictions) {
  VerifyOptions options;
  if (max_outstanding_prefetches >= 0) options.max_outstanding_prefetches = max_outstanding_prefetches;
  if (max_outstanding_evictions >= 0) options.max_outstanding_evictions = max_outstanding_evictions;
  options.alignment = plan.alignment;
  for (const SpaceInfo& space : plan.spaces) {
    if (space.capacity) options.capacity[space.id] = *space.capacity;
  }
  return VerifyPlan(buffers, plan, options);
}

absl::StatusOr<PlanJobResult> RunPlanJob(const std::string& input_path,
                                         const PlanJobOptions& options) {
  for (const auto* path :
       {&options.json_path, &options.svg_path, &options.html_path, &options.emit_ir_path}) {
    if (absl::Status s = CheckOutputPath(*path); !s.ok()) return s;
  }
  if (options.emit_ir_path && !options.msa) {
    return absl::InvalidArgumentError(
        "error: --emit-ir writes the schedule rewritten by memory space assignment; it needs "
        "--fast-memory or --target");
  }
  absl::StatusOr<LoadedInput> input = LoadInput(input_path, options.load);
  if (!input.ok()) return input.status();

  PlanJobResult result;
  absl::StatusOr<Plan> plan;
  if (options.msa) {
    if (!input->program) {
      return absl::InvalidArgumentError(
          input_path + ": error: fast memory needs a program (text IR or ONNX): a lifetime CSV "
                       "has no op costs to plan it with");
    }
    MsaJobOptions msa = *options.msa;
    msa.rewrite = options.emit_ir_path.has_value();
    absl::StatusOr<MsaJobResult> job =
        RunMsaJob(*input->program, *input->analysis, msa, options.pools);
    if (!job.ok()) return job.status();
    result.msa = *std::move(job);
    plan = result.msa->plan;
  } else {
    plan = PlanPools(input->buffers, options.pools);
  }
  if (!plan.ok()) return plan.status();
  const std::int64_t prefetch_limit = options.msa ? options.msa->msa.max_outstanding_prefetches : -1;
  const std::int64_t eviction_limit = options.msa ? options.msa->msa.max_outstanding_evictions : -1;
  if (absl::Status s = VerifyAgainst(input->buffers, *plan, prefetch_limit, eviction_limit);
      !s.ok()) {
    return absl::InternalError("internal error: the plan failed verification: " +
                               std::string(s.message()));
  }
  plan->verified = true;
  if (result.msa) result.msa->plan.verified = true;

  // Aliasing only changes ONNX imports; measure what it saved there.
  if (input->format == InputFormat::kOnnx && options.load.alias) {
    LoadOptions plain = options.load;
    plain.alias = false;
    absl::StatusOr<LoadedInput> unaliased = LoadInput(input_path, plain);
    if (!unaliased.ok()) return unaliased.status();
    PoolPlanOptions unbounded = options.pools;
    unbounded.capacity.reset();
    absl::StatusOr<Plan> plain_plan = PlanPools(unaliased->buffers, unbounded);
    if (!plain_plan.ok()) return plain_plan.status();
    result.peak_without_alias = plain_plan->peak;
  }

  std::vector<std::pair<std::string, std::string>> outputs;
  const Program* program = input->program ? &*input->program : nullptr;
  if (options.json_path) {
    outputs.emplace_back(*options.json_path, WritePlanJson(*plan, input->buffers, program));
  }
  MapOptions map_options;
  map_options.title = input_path;
  map_options.program = program;
  if (options.svg_path) {
    outputs.emplace_back(*options.svg_path, RenderSvgMap(input->buffers, *plan, map_options));
  }
  if (options.html_path) {
    outputs.emplace_back(*options.html_path, RenderHtmlMap(input->buffers, *plan, map_options));
  }
  if (options.emit_ir_path) outputs.emplace_back(*options.emit_ir_path, PrintProgram(*result.msa->rewritten));
  for (const auto& [path, contents] : outputs) {
    if (absl::Status s = WriteFileAtomically(path, contents); !s.ok()) return s;
  }

  result.summary = FormatPlanSummary(*input, *plan, result.peak_without_alias);
  if (result.msa) result.summary += FormatMsaSummary(*result.msa);
  result.plan = *std::move(plan);
  result.input = *std::move(input);
  return result;
}

}  // namespace memplan
