// The public Plan, Verify, Execute and WriteJson (include/memplan/plan.h) over
// the plan job (driver/plan_job.h): the same planning, verification and JSON
// as `memplan plan`.
#include "memplan/plan.h"

#include <algorithm>
#include <string>
#include <utility>

#include "api/impl.h"
#include "driver/execute_job.h"
#include "driver/plan_job.h"
#include "io/file_io.h"
#include "memplan/memplan.h"
#include "packing/packer.h"

namespace memplan::api {
namespace {

absl::StatusOr<PlanJobOptions> JobOptions(const Options& options) {
  PlanJobOptions job;
  absl::StatusOr<PackingAlgorithm> algorithm = ParsePackingAlgorithm(options.algorithm);
  if (!algorithm.ok()) return algorithm.status();
  absl::StatusOr<PackEffort> effort = ParsePackEffort(options.effort);
  if (!effort.ok()) return effort.status();
  job.pools.algorithm = *algorithm;
  job.pools.effort = *effort;
  if (options.time_limit_seconds < 0) {
    return absl::InvalidArgumentError("time_limit_seconds must be >= 0");
  }
  job.pools.time_limit_seconds = options.time_limit_seconds;
  job.pools.alignment = options.alignment;
  if (options.capacity) {
    job.pools.capacity = *options.capacity;
    job.pools.capacity_spelled = "Options::capacity " + std::to_string(*options.capacity);
  }
  if (options.transient_capacity) {
    job.pools.pool_capacity[memplan::Lifetime::kTransient] = {
        *options.transient_capacity,
        "Options::transient_capacity " + std::to_string(*options.transient_capacity)};
  }
  if (options.fast_memory_bytes || options.target) {
    MsaJobOptions msa;
    msa.target = options.target;
    msa.fast_memory_bytes = options.fast_memory_bytes;
    job.msa = std::move(msa);
  }
  job.json_path = std::string(kStdoutPath);
  return job;
}

// The public view of a verified plan for `input`.
Result MakeResult(const LoadedInput& input, PlanJobResult job) {
  auto impl = std::make_shared<Result::Impl>();
  impl->plan = std::move(job.plan);
  impl->summary = std::move(job.summary);
  impl->json = job.json_stdout ? std::move(*job.json_stdout) : std::string();
  const memplan::Plan& plan = impl->plan;
  Result result(impl);
  result.algorithm = plan.algorithm;
  result.time_steps = plan.time_steps;
  result.transient_peak = plan.peak;
  result.lower_bound = plan.lower_bound;
  const memplan::Program* program = input.program ? &*input.program : nullptr;
  for (std::size_t b = 0; b < input.buffers.buffers.size(); ++b) {
    const Buffer& buffer = input.buffers.buffers[b];
    PlannedBuffer& out = result.buffers.emplace_back();
    out.name = std::string(buffer.name);
    out.size = buffer.size;
    out.lifetime = PublicLifetime(buffer.lifetime);
    for (ValueId v : buffer.values) {
      out.values.push_back(program ? program->values[v].name : std::to_string(v));
    }
    if (b >= plan.placements.size()) continue;
    out.pool = plan.placements[b].pool.str();
    for (const Allocation& a : plan.placements[b].allocations) {
      out.segments.push_back({SpaceNameIn(plan, a.space), a.offset, a.start, a.end});
    }
  }
  for (const AsyncCopy& copy : plan.copies) {
    Copy& out = result.copies.emplace_back();
    out.kind = copy.kind == CopyKind::kPrefetch ? Copy::Kind::kPrefetch : Copy::Kind::kEviction;
    out.buffer = std::string(input.buffers.buffers[copy.buffer].name);
    out.from_space = SpaceNameIn(plan, copy.from_space);
    out.to_space = SpaceNameIn(plan, copy.to_space);
    out.start = copy.start;
    out.done = copy.done;
    out.bytes = copy.bytes;
    out.slice_index = copy.slice_index;
    out.slice_count = copy.slice_count;
    out.slice_offset = copy.slice_offset;
    out.block = copy.block;
    if (copy.via) {
      out.via_space = SpaceNameIn(plan, copy.via->space);
      out.via_offset = copy.via->offset;
    }
  }
  for (const WindowPrefetch& w : plan.window_prefetches) {
    Copy& out = result.copies.emplace_back();
    out.buffer = std::string(input.buffers.buffers[w.buffer].name);
    out.from_space = SpaceNameIn(plan, kDefaultSpace);
    out.to_space = SpaceNameIn(plan, w.space);
    out.start = w.start;
    out.done = w.done;
    out.bytes = w.bytes;
    out.window = true;
    const bool named = program != nullptr && static_cast<std::size_t>(w.op) < program->ops.size() &&
                       !program->ops[w.op].results.empty();
    out.window_op = named ? std::string(program->values[program->ops[w.op].results.front()].name)
                          : std::to_string(w.op);
    out.window_operand = w.operand;
    out.window_offset = w.offset;
  }
  std::stable_sort(result.copies.begin(), result.copies.end(),
                   [](const Copy& a, const Copy& b) { return a.start < b.start; });
  for (const PoolInfo& pool : plan.pools) {
    result.pools.push_back({pool.name, SpaceNameIn(plan, pool.space),
                            PublicLifetime(pool.lifetime), pool.offset, pool.size,
                            pool.lower_bound});
  }
  if (plan.msa) {
    result.estimated_time_s = plan.msa->estimated_time_s;
    result.time_bound_s = plan.msa->time_bound_s;
  }
  return result;
}

}  // namespace

memplan::Lifetime InternalLifetime(Lifetime lifetime) {
  switch (lifetime) {
    case Lifetime::kTransient: return memplan::Lifetime::kTransient;
    case Lifetime::kExternal: return memplan::Lifetime::kExternal;
    case Lifetime::kConstant: return memplan::Lifetime::kConstant;
    case Lifetime::kVariable: return memplan::Lifetime::kVariable;
    case Lifetime::kStaging: return memplan::Lifetime::kStaging;
  }
  return memplan::Lifetime::kTransient;
}

Lifetime PublicLifetime(memplan::Lifetime lifetime) {
  switch (lifetime) {
    case memplan::Lifetime::kTransient: return Lifetime::kTransient;
    case memplan::Lifetime::kExternal: return Lifetime::kExternal;
    case memplan::Lifetime::kConstant: return Lifetime::kConstant;
    case memplan::Lifetime::kVariable: return Lifetime::kVariable;
    case memplan::Lifetime::kStaging: return Lifetime::kStaging;
  }
  return Lifetime::kTransient;
}

const char* Version() { return MEMPLAN_VERSION; }

Result::Result(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
const std::string& Result::summary() const { return impl_->summary; }
const std::string& Result::json() const { return impl_->json; }

absl::StatusOr<Result> Plan(const Program& program, const Options& options) {
  absl::StatusOr<PlanJobOptions> job = JobOptions(options);
  if (!job.ok()) return job.status();
  const LoadedInput& input = program.impl().input;
  job->load = program.impl().load;
  absl::StatusOr<PlanJobResult> planned = RunPlanJob(input.buffers.input, *job, input);
  if (!planned.ok()) return planned.status();
  return MakeResult(input, *std::move(planned));
}

absl::Status Verify(const Program& program, const Result& result) {
  return VerifySavedPlan(program.impl().input, result.impl().plan);
}

absl::StatusOr<ExecuteReport> Execute(const Program& program, const Result& result) {
  absl::StatusOr<memplan::ExecuteReport> ran =
      ExecuteSavedPlan(program.impl().input, result.impl().plan);
  if (!ran.ok()) return ran.status();
  return ExecuteReport{ran->ops, ran->copies, ran->bytes_written, ran->bytes_checked};
}

absl::Status WriteJson(const Result& result, const std::string& path) {
  return WriteFileAtomically(path, result.json());
}

}  // namespace memplan::api
