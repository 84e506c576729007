#include "cli/saved_plan.h"

#include <filesystem>
#include <map>
#include <optional>

#include "cli/cli_support.h"
#include "fmt/format.h"
#include "io/file_io.h"
#include "ir/diagnostic.h"
#include "nlohmann/json.hpp"
#include "report/plan_json.h"

namespace memplan::cli {

namespace {

// The input a plan records ("input"), or "" when it has none.
std::string RecordedInput(const std::string& plan_text) {
  const nlohmann::json doc = nlohmann::json::parse(plan_text, nullptr, false);
  if (!doc.is_object() || !doc.contains("input") || !doc["input"].is_string()) return "";
  return doc["input"].get<std::string>();
}

// The load options for `verify`: those recorded in the plan, unless the plan
// has none (then the flags). Flags that disagree with the record are an
// error, and so is an input the recorded options do not apply to (--no-alias:
// ONNX only; --dim: ONNX and text IR): the plan was made for another input.
absl::StatusOr<LoadOptions> VerifyLoadOptions(const LoadOptions& flags, bool dims_given,
                                              const std::optional<PlanInputOptions>& recorded,
                                              const std::string& plan_path,
                                              const std::string& input_path,
                                              const std::string& plan_text) {
  if (!recorded) return flags;
  const auto conflict = [&](std::string_view flag, std::string_view plan_has) {
    return LocatedError(plan_path, SourceLocation{},
                        fmt::format("{} disagrees with the plan, which was made with {}; drop the "
                                    "flag (verify loads the input as the plan records)",
                                    flag, plan_has));
  };
  const auto dims_text = [](const std::map<std::string, std::int64_t>& dims) {
    std::string text;
    for (const auto& [name, value] : dims) text += fmt::format(" --dim {}={}", name, value);
    return text.empty() ? std::string("no --dim") : text.substr(1);
  };
  const InputFormat format = DetectFormat(input_path);
  // --no-alias applies to ONNX only, --dim to ONNX and text IR.
  const bool alias_mismatch = format != InputFormat::kOnnx && !recorded->alias;
  const bool dims_mismatch = format == InputFormat::kLifetimeCsv && !recorded->dims.empty();
  if (alias_mismatch || dims_mismatch) {
    std::string load_flags = recorded->alias ? "" : "--no-alias";
    if (!recorded->dims.empty()) {
      load_flags += (load_flags.empty() ? "" : " ") + dims_text(recorded->dims);
    }
    const std::string made_for = RecordedInput(plan_text);
    // Only ONNX and text IR inputs record flags; name the one the plan was made for.
    const InputFormat made_for_format =
        made_for.empty() ? InputFormat::kOnnx : DetectFormat(made_for);
    return LocatedError(
        plan_path, SourceLocation{},
        fmt::format("this plan was made for {} with {}{}, but the input given is {}",
                    InputFormatName(made_for_format), load_flags,
                    made_for.empty() ? "" : fmt::format(" (input '{}')", made_for),
                    InputFormatName(format)));
  }
  if (!flags.alias && recorded->alias) return conflict("--no-alias", "aliasing on");
  if (dims_given && flags.dims != recorded->dims) {
    return conflict(dims_text(flags.dims), dims_text(recorded->dims));
  }
  const auto regions_text = [](const std::optional<std::int64_t>& per) {
    return !per ? std::string("no --regions")
                : *per == 0 ? std::string("--regions")
                            : fmt::format("--regions --regions-per {}", *per);
  };
  if (flags.regions_per && flags.regions_per != recorded->regions_per) {
    return conflict(regions_text(flags.regions_per), regions_text(recorded->regions_per));
  }
  if (flags.reorder && !recorded->reorder) return conflict("--reorder", "the input order");
  LoadOptions options;
  options.reorder = recorded->reorder;
  options.alias = recorded->alias;
  options.dims = recorded->dims;
  options.regions_per = recorded->regions_per;
  options.offline_plan = recorded->offline_plan;  // the fixed offsets are checked again
  options.input_shapes = recorded->input_shapes;
  return options;
}

}  // namespace

absl::StatusOr<SavedPlan> LoadSavedPlan(const InputFlags& input_flags, const LoadOptions& flags,
                                        const std::string& plan_path, std::string_view command) {
  absl::StatusOr<std::string> text = ReadFile(plan_path);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::optional<PlanInputOptions>> recorded =
      ReadPlanInputOptions(*text, plan_path);
  if (!recorded.ok()) {
    // Not JSON at all: perhaps a CSV solution under another name, which
    // verify (only) tells apart by its extension.
    if (!nlohmann::json::accept(*text)) {
      return absl::InvalidArgumentError(fmt::format(
          "{} ({} reads a plan JSON written by memplan plan --json{})",
          std::string(recorded.status().message()), command,
          command == "verify" ? ", or a MiniMalloc CSV solution named *.csv" : ""));
    }
    return recorded.status();
  }
  absl::StatusOr<LoadOptions> load =
      VerifyLoadOptions(flags, !input_flags.dims.empty(), *recorded, plan_path,
                        input_flags.input, *text);
  if (!load.ok()) return load.status();
  absl::StatusOr<LoadedInput> input = LoadInput(input_flags.input, *load);
  if (!input.ok()) return input.status();
  const std::string note =
      *recorded ? "" : "the plan does not record how the input was loaded (--no-alias, --dim)";
  const Program* program = input->program ? &*input->program : nullptr;
  absl::StatusOr<Plan> plan = ReadPlanJson(*text, plan_path, input->buffers, note, program);
  if (!plan.ok()) {
    // A plan that does not match its input: name the input it was made for
    // when that is another file.
    const std::string made_for = RecordedInput(*text);
    const auto file_name = [](const std::string& path) {
      return std::filesystem::path(path).filename().string();
    };
    // The reader's message is `PLAN[:line:col]: error: ...`.
    const std::string message(plan.status().message());
    const std::size_t error_at = message.find(": error: ");
    if (!made_for.empty() && file_name(made_for) != file_name(input_flags.input) &&
        message.rfind(plan_path, 0) == 0 && error_at != std::string::npos) {
      const std::size_t rest = error_at + std::string_view(": error: ").size();
      return absl::InvalidArgumentError(fmt::format("{}this plan is for '{}', not '{}' ({})",
                                                    message.substr(0, rest), made_for,
                                                    input_flags.input, message.substr(rest)));
    }
    return plan.status();
  }
  absl::StatusOr<std::optional<RecordedMachine>> machine = ReadRecordedMachine(*text, plan_path);
  if (!machine.ok()) return machine.status();
  return SavedPlan{*std::move(input), *std::move(plan), *std::move(machine)};
}

}  // namespace memplan::cli
