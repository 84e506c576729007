#include "fuzz/fuzz_support.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "driver/execute_job.h"
#include "driver/recorded_machine.h"
#include "report/plan_json.h"

namespace memplan::fuzz {
namespace {

const std::filesystem::path& ScratchFolder() {
  static const std::filesystem::path folder = [] {
    std::filesystem::path p =
        std::filesystem::temp_directory_path() / ("memplan-fuzz-" + std::to_string(getpid()));
    std::error_code error;
    std::filesystem::create_directories(p, error);
    if (error) Fail("cannot make the scratch folder", p.string() + ": " + error.message());
    return p;
  }();
  return folder;
}

// Skips `digits` at the front of `text`; false when there are none.
bool SkipDigits(std::string_view& text) {
  size_t n = 0;
  while (n < text.size() && std::isdigit(static_cast<unsigned char>(text[n]))) ++n;
  text.remove_prefix(n);
  return n > 0;
}

bool LocatedAt(std::string_view message, std::string_view path) {
  if (path.empty() || !message.starts_with(path)) return false;
  message.remove_prefix(path.size());
  if (message.starts_with(": error: ")) return true;
  if (!message.starts_with(':')) return false;
  message.remove_prefix(1);
  if (!SkipDigits(message) || !message.starts_with(':')) return false;
  message.remove_prefix(1);
  return SkipDigits(message) && message.starts_with(": error: ");
}

// Debian's absl has its own string_view.
std::string_view MessageOf(const absl::Status& status) {
  return std::string_view(status.message().data(), status.message().size());
}

bool LocatedAtAny(std::string_view message, std::initializer_list<std::string_view> paths) {
  for (std::string_view path : paths) {
    if (LocatedAt(message, path)) return true;
  }
  return false;
}

}  // namespace

void Fail(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "memplan fuzz: %.*s\n  %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::fflush(stderr);
  std::abort();
}

std::string WriteScratchFile(std::string_view name, std::string_view bytes) {
  const std::string path = (ScratchFolder() / std::string(name)).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) Fail("cannot write the scratch file", path);
  return path;
}

bool IsLocatedError(std::string_view message, std::string_view path) {
  return LocatedAt(message, path);
}

void CheckBadInputError(const absl::Status& status, std::string_view what,
                        std::initializer_list<std::string_view> paths) {
  if (status.ok()) return;
  if (status.code() != absl::StatusCode::kInvalidArgument) {
    Fail(std::string(what) + ": bad input must be InvalidArgument (exit 2)", status.ToString());
  }
  if (!LocatedAtAny(MessageOf(status), paths)) {
    Fail(std::string(what) + ": error not located at the input", status.ToString());
  }
}

void CheckPlanningError(const absl::Status& status, std::string_view what,
                        std::initializer_list<std::string_view> paths) {
  if (status.ok()) return;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kFailedPrecondition:
      break;
    default:
      Fail(std::string(what) + ": planner failure (a bug, not bad input)", status.ToString());
  }
  if (!LocatedAtAny(MessageOf(status), paths) && !LocatedAt(MessageOf(status), "memplan")) {
    Fail(std::string(what) + ": error not located at the input", status.ToString());
  }
}

void PreferOneThread() { setenv("MEMPLAN_THREADS", "1", /*overwrite=*/0); }

void CheckExecutes(const LoadedInput& input, const Plan& plan, std::string_view what) {
  ExecuteOptions options;
  options.max_arena_bytes = Bytes{256} << 20;  // libFuzzer stops a run past 2 GiB
  absl::StatusOr<ExecuteReport> run = ExecuteSavedPlan(input, plan, options);
  if (run.status().code() == absl::StatusCode::kFailedPrecondition) {
    Fail(std::string(what) + ": a verified plan fails memplan execute", run.status().ToString());
  }
}

PlanJobOptions FuzzPlanOptions() {
  PlanJobOptions options;
  options.pools.effort = PackEffort::kFast;
  options.measure_aliasing = false;
  options.json_path = std::string(kStdoutPath);
  return options;
}

void PlanAndCheck(const std::string& path, PlanJobOptions options, std::string_view what) {
  std::vector<std::string_view> paths = {path};
  std::string target_path;
  if (options.msa && options.msa->target) target_path = *options.msa->target;
  absl::StatusOr<PlanJobResult> result = RunPlanJob(path, options);
  if (std::getenv("MEMPLAN_FUZZ_VERBOSE") != nullptr) {
    std::fprintf(stderr, "%s: %s\n", std::string(what).c_str(), result.status().ToString().c_str());
  }
  CheckPlanningError(result.status(), what, {path, target_path});
  if (!result.ok() || !result->json_stdout) return;
  const Program* program = result->input.program ? &*result->input.program : nullptr;
  absl::StatusOr<Plan> reread =
      ReadPlanJson(*result->json_stdout, "fuzz.plan.json", result->input.buffers, "", program);
  if (!reread.ok()) Fail(std::string(what) + ": a written plan does not read back", reread.status().ToString());
  absl::StatusOr<std::optional<RecordedMachine>> machine =
      ReadRecordedMachine(*result->json_stdout, "fuzz.plan.json");
  if (!machine.ok()) Fail(std::string(what) + ": a written plan's machine does not read back", machine.status().ToString());
  if (absl::Status s = VerifySavedPlan(result->input, *reread, *machine); !s.ok()) {
    Fail(std::string(what) + ": a written plan fails memplan verify", s.ToString());
  }
  CheckExecutes(result->input, *reread, what);
}

}  // namespace memplan::fuzz
