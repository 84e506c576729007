#include "driver/onnx_order.h"

#include <cstdint>
#include <map>

#include "fmt/format.h"
#include "io/file_io.h"
#include "io/onnx/node_order.h"

namespace memplan {

absl::StatusOr<std::string> OnnxInPlanOrder(const LoadedInput& input) {
  const Program& program = *input.program;
  if (const ComputationId c = ReorderedCallee(input); c != kNoId) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: error: --write-onnx writes the main graph's node order, but --reorder also "
        "reordered @{} (a subgraph of If, Loop or Scan), whose nodes the file keeps in their "
        "order",
        input.buffers.input, program.computations[c].name));
  }
  // Main-graph tensor names are value names unchanged (io/onnx/importer.h).
  std::map<std::string, std::int64_t> position;
  const std::vector<OpId>& order = input.analysis->schedule.order;
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (ValueId v : program.ops[order[i]].results) {
      position.emplace(program.values[v].name, static_cast<std::int64_t>(i));
    }
  }
  absl::StatusOr<std::string> bytes = ReadFile(input.buffers.input);
  if (!bytes.ok()) return bytes.status();
  return OnnxWithNodeOrder(*bytes, input.buffers.input, position);
}

}  // namespace memplan
