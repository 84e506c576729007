#include "report/captured_copy_lines.h"

#include <utility>
#include <vector>

#include "fmt/format.h"
#include "fmt/ranges.h"
#include "ir/plural.h"
#include "ir/region_plan.h"

namespace memplan {
namespace {

// The copied value's name in the region ("w"), else its buffer's.
std::string CopyName(const Plan& plan, const Program* program, const RegionCopy& c) {
  if (program != nullptr && c.value >= 0 &&
      static_cast<std::size_t>(c.value) < program->values.size()) {
    return program->values[static_cast<std::size_t>(c.value)].name;
  }
  (void)plan;
  return fmt::format("buffer {}", c.buffer);
}

}  // namespace

BufferSet WithCapturedCopies(const BufferSet& segments, const Plan& plan, const Program* program,
                             MemorySpace space, std::int64_t& copies) {
  BufferSet out = segments;
  copies = 0;
  if (!plan.regions) return out;
  for (const RegionInfo& info : plan.regions->regions) {
    for (const RegionCopy& c : info.copies) {
      if (c.to_space != space) continue;
      Buffer chunk;
      chunk.name = CopyName(plan, program, c) + " (copy)";
      chunk.size = c.bytes;
      chunk.start = c.start;
      chunk.end = c.end;
      chunk.lifetime = Lifetime::kTransient;
      out.buffers.push_back(std::move(chunk));
      ++copies;
    }
  }
  return out;
}

std::string PoolCopiesNote(const Plan& plan, const Program* program, const PoolInfo& pool) {
  if (!plan.regions) return "";
  std::vector<std::string> held;
  std::vector<std::string> steps;
  for (const RegionInfo& info : plan.regions->regions) {
    for (const RegionCopy& c : info.copies) {
      if (c.resource < 0 ||
          static_cast<std::size_t>(c.resource) >= plan.regions->resources.size() ||
          plan.regions->resources[static_cast<std::size_t>(c.resource)].name != pool.name) {
        continue;
      }
      held.push_back(fmt::format("{}, {} over steps {}..{}", CopyName(plan, program, c),
                                 CountOf(c.bytes, "byte"), c.start, c.end));
    }
  }
  if (held.empty()) return "";
  return fmt::format(
      "  ({} also holds {} ({}) in its extent; its buffers and bytes count the plan's "
      "buffers only, its slices, as verify checks them)\n",
      pool.name, CountOf(held.size(), "copy", "copies"), fmt::join(held, "; "));
}

}  // namespace memplan
