#include "regions/captured_copies.h"

#include <algorithm>

namespace memplan {

std::pair<TimeStep, TimeStep> ReaderSteps(const Program& program, const ProgramAnalysis& analysis,
                                          ComputationId region, ValueId value) {
  TimeStep first = 0, last = -1;
  for (OpId o : program.computations[region].ops) {
    const std::vector<ValueId>& operands = program.ops[o].operands;
    if (std::find(operands.begin(), operands.end(), value) == operands.end()) continue;
    const TimeStep t = analysis.schedule.op_time[o];
    if (last < first) {
      first = last = t;
    } else {
      first = std::min(first, t);
      last = std::max(last, t);
    }
  }
  return {first, last};
}

void InsertCopyCommands(const std::vector<RegionCopy>& copies, std::vector<Command>& commands) {
  for (const RegionCopy& copy : copies) {
    const auto reads = [&](const Command& c) {
      return std::any_of(c.ranges.begin(), c.ranges.end(), [&](const CommandRange& r) {
        return r.value == copy.value && r.access == Access::kRead && r.resource == kNoId;
      });
    };
    auto first = std::find_if(commands.begin(), commands.end(), reads);
    if (first == commands.end()) continue;
    // Before the whole wave: its commands run at once.
    while (first != commands.begin() && first->concurrent >= 0 &&
           std::prev(first)->concurrent == first->concurrent) {
      --first;
    }
    for (auto c = first; c != commands.end(); ++c) {
      for (CommandRange& r : c->ranges) {
        if (r.value != copy.value || r.access != Access::kRead || r.resource != kNoId) continue;
        r.resource = copy.resource;
        r.value_offset = r.offset;
        r.offset = copy.offset + r.offset;
      }
    }
    Command command;
    command.kind = CommandKind::kCopy;
    command.time = first->time;
    CommandRange from;
    from.length = SizeExpr::Constant(copy.bytes);
    from.access = Access::kRead;
    from.value = copy.value;
    CommandRange to = from;
    to.access = Access::kWrite;
    to.resource = copy.resource;
    to.offset = copy.offset;
    command.ranges = {from, to};
    commands.insert(first, std::move(command));
  }
}

}  // namespace memplan
