#include "driver/csv_solution.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "driver/pools.h"
#include "fmt/format.h"
#include "io/csv/reader.h"
#include "io/csv/solution_writer.h"
#include "ir/diagnostic.h"
#include "packing/packer.h"
#include "verify/verifier.h"

namespace memplan {

absl::StatusOr<Plan> PlanOfCsvSolution(const BufferSet& problem, const BufferSet& solution,
                                       const std::string& solution_path) {
  if (std::find(solution.csv_columns.begin(), solution.csv_columns.end(), "offset") ==
      solution.csv_columns.end()) {
    return LocatedError(solution_path, SourceLocation{1, 1},
                         "a solution needs an 'offset' column (MiniMalloc's output form: the "
                         "input's columns plus 'offset')");
  }
  const auto has_column = [&](std::string_view name) {
    return std::find(solution.csv_columns.begin(), solution.csv_columns.end(), name) !=
           solution.csv_columns.end();
  };
  const bool has_gaps = has_column("gaps");
  const bool has_alignment = has_column("alignment");
  std::unordered_map<std::string_view, BufferId> in_problem;
  for (BufferId id = 0; id < static_cast<BufferId>(problem.buffers.size()); ++id) {
    in_problem.emplace(problem.buffers[id].name, id);
  }
  std::vector<std::optional<Bytes>> offsets(problem.buffers.size());
  for (std::size_t i = 0; i < solution.buffers.size(); ++i) {
    const Buffer& row = solution.buffers[i];
    const CsvRowFields at = CsvFieldsOf(solution, i).value_or(CsvRowFields{});
    auto it = in_problem.find(row.name);
    if (it == in_problem.end()) {
      return LocatedError(solution_path, at.id,
                           fmt::format("buffer '{}' is not in the problem '{}'", row.name,
                                       problem.input));
    }
    const Buffer& b = problem.buffers[it->second];
    if (row.start != b.start || row.end != b.end || row.size != b.size) {
      // At the first field that differs.
      const SourceLocation differs =
          row.start != b.start ? at.lower : row.end != b.end ? at.upper : at.size;
      return LocatedError(
          solution_path, differs,
          fmt::format("buffer '{}' is lower {}, upper {}, size {} here but lower {}, upper {}, "
                      "size {} in the problem '{}'",
                      row.name, row.start, row.end + 1, row.size, b.start, b.end + 1, b.size,
                      problem.input));
    }
    // A gaps column states the problem's gaps again: it must agree (as
    // read: adjacent dead gaps merged, entries in any order).
    if (has_gaps && (row.gaps() != b.gaps() || row.windows() != b.windows())) {
      const auto shown = [](const Buffer& x) {
        const std::string field = CsvGapsField(x);
        return field.empty() ? std::string("no gaps") : "gaps '" + field + "'";
      };
      return LocatedError(solution_path, at.gaps,
                          fmt::format("buffer '{}' has {} here but {} in the problem '{}'",
                                      row.name, shown(row), shown(b), problem.input));
    }
    // So does an alignment column (the verifier checks the offsets against
    // the problem's).
    if (has_alignment && row.alignment != b.alignment) {
      return LocatedError(solution_path, at.alignment,
                          fmt::format("buffer '{}' has alignment {} here but {} in the problem '{}'",
                                      row.name, row.alignment, b.alignment, problem.input));
    }
    if (!row.fixed_offset()) {
      return LocatedError(solution_path, at.offset,
                          fmt::format("buffer '{}' has no offset", row.name));
    }
    offsets[it->second] = row.fixed_offset();
  }
  for (BufferId id = 0; id < static_cast<BufferId>(problem.buffers.size()); ++id) {
    if (!offsets[id]) {
      return LocatedError(solution_path, SourceLocation{},
                           fmt::format("buffer '{}' of the problem '{}' has no row here",
                                       problem.buffers[id].name, problem.input));
    }
  }

  Plan plan;
  plan.input = problem.input;
  plan.algorithm = "csv solution";
  plan.time_steps = problem.time_steps;
  PoolInfo pool;
  pool.name = std::string(LifetimeName(Lifetime::kTransient));
  std::vector<PackItem> live;
  for (BufferId id = 0; id < static_cast<BufferId>(problem.buffers.size()); ++id) {
    const Buffer& b = problem.buffers[id];
    plan.placements.push_back(
        BufferPlacement{pool.name, {Allocation{kDefaultSpace, *offsets[id], b.start, b.end}}});
    // Every offset the solution gives, empty buffers' too, lies in the pool.
    pool.size = std::max(pool.size, *offsets[id] + b.size);
    pool.total_bytes += b.size;
    AppendHeldBytes(b, live);
  }
  pool.buffers = static_cast<std::int64_t>(problem.buffers.size());
  pool.lower_bound = std::min(MaxLiveBytes(live), pool.size);
  plan.peak = pool.size;
  plan.lower_bound = pool.lower_bound;
  plan.pools.push_back(pool);
  plan.spaces.push_back(SpaceInfo{std::string(SpaceName(kDefaultSpace)), kDefaultSpace,
                                  std::nullopt, pool.size, 1});
  return plan;
}

absl::StatusOr<Plan> VerifyCsvSolution(const BufferSet& problem, const std::string& solution_path,
                                       std::optional<Bytes> capacity) {
  absl::StatusOr<BufferSet> solution = ReadLifetimeCsvFile(solution_path, CsvOffsets::kSolution);
  if (!solution.ok()) return solution.status();
  absl::StatusOr<Plan> plan = PlanOfCsvSolution(problem, *solution, solution_path);
  if (!plan.ok()) return plan.status();
  VerifyOptions options;
  options.input_gaps = true;  // the problem states its gaps
  if (capacity) options.capacity[kDefaultSpace] = *capacity;
  if (absl::Status s = VerifyPlan(problem, *plan, options); !s.ok()) {
    // At the offset field of the solution's row for the buffer the
    // violation is about, when it is about one.
    std::string where = solution_path;
    if (const std::optional<BufferId> about = ViolationBuffer(s);
        about && *about < static_cast<BufferId>(problem.buffers.size())) {
      for (std::size_t i = 0; i < solution->buffers.size(); ++i) {
        if (solution->buffers[i].name == problem.buffers[*about].name) {
          if (const std::optional<CsvRowFields> at = CsvFieldsOf(*solution, i)) {
            where += ":" + LineColumn(at->offset);
          }
          break;
        }
      }
    }
    return absl::FailedPreconditionError(
        fmt::format("{}: error: verification failed: {}", where, std::string(s.message())));
  }
  plan->verified = true;
  return plan;
}

}  // namespace memplan
