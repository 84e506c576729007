#include "io/onnx/inference_message.h"

#include <cstddef>
#include <vector>

#include "fmt/format.h"

namespace memplan {
namespace {

std::vector<std::string_view> NonEmptyLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty()) lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// Removes a leading `[SomethingError] ` tag, if any.
std::string_view WithoutTag(std::string_view text) {
  if (text.starts_with('[')) {
    const std::size_t close = text.find("] ");
    if (close != std::string_view::npos) text.remove_prefix(close + 2);
  }
  return text;
}

// `(op_type:OP, node name: NAME): [Tag] MESSAGE` as `node 'NAME' (OP):
// MESSAGE`, or empty when `line` has another form.
std::string NodeFailure(std::string_view line) {
  constexpr std::string_view kOp = "(op_type:";
  constexpr std::string_view kName = ", node name: ";
  constexpr std::string_view kEnd = "): ";
  const std::size_t op = line.find(kOp);
  if (op == std::string_view::npos) return {};
  const std::size_t name = line.find(kName, op);
  if (name == std::string_view::npos) return {};
  const std::size_t end = line.find(kEnd, name);
  if (end == std::string_view::npos) return {};
  const std::string_view op_type = line.substr(op + kOp.size(), name - op - kOp.size());
  const std::string_view node = line.substr(name + kName.size(), end - name - kName.size());
  return fmt::format("node '{}' ({}): {}", node, op_type, WithoutTag(line.substr(end + kEnd.size())));
}

}  // namespace

std::string OneLineInferenceMessage(std::string_view raw) {
  const std::vector<std::string_view> lines = NonEmptyLines(raw);
  if (lines.empty()) return "no message";
  const std::size_t more = lines.size() - 1;
  std::string first = NodeFailure(lines.front());
  if (first.empty()) {
    first = std::string(WithoutTag(lines.front()));
    if (more > 0) first += fmt::format(" (and {} more line{})", more, more == 1 ? "" : "s");
    return first;
  }
  if (more > 0) first += fmt::format(" (and {} more node{})", more, more == 1 ? "" : "s");
  return first;
}

}  // namespace memplan
