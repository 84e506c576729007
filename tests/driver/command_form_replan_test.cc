// The command form (`plan --emit-ir` with regions) re-reads and re-plans to
// the same plan: for every region example and every region test program
// (tests/data/regions), at several --dim bindings and with both slab
// layouts. The re-read program is already allocated — every region's
// commands name only resources the host allocated — so planning it again
// gives each allocation of the first plan one buffer of the same size and
// no region a slab. (The transient extent may differ: the re-plan packs the
// allocations over the host's text order, not over the timeline's
// concurrency, e.g. region_devices.mpir: 262144 bytes against 196608.)
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/file_io.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"
#include "regions/command_form.h"
#include "tests/driver/region_test_util.h"

namespace memplan {
namespace {

// Every region program: examples/*.mpir with a region, tests/data/regions/*.
std::vector<std::filesystem::path> ReplanPrograms() {
  std::vector<std::filesystem::path> paths;
  const std::string root = MEMPLAN_SOURCE_DIR;
  for (const char* dir : {"/examples", "/tests/data/regions"}) {
    for (const auto& entry : std::filesystem::directory_iterator(root + dir)) {
      if (entry.path().extension() != ".mpir") continue;
      absl::StatusOr<std::string> text = ReadFile(entry.path().string());
      if (text.ok() && text->find("region @") != std::string::npos) paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// The bindings to try: none (every dim at its bound), all dims 1, and all
// dims at a third of their bound (+1).
std::vector<std::map<std::string, std::int64_t>> ReplanBindings(const Program& program) {
  std::vector<std::map<std::string, std::int64_t>> out = {{}};
  if (program.dims.empty()) return out;
  std::map<std::string, std::int64_t> ones, thirds;
  for (const DimDecl& d : program.dims) {
    ones[d.name] = 1;
    thirds[d.name] = d.bound.value_or(300) / 3 + 1;
  }
  out.push_back(ones);
  out.push_back(thirds);
  return out;
}

TEST(CommandFormReplan, EveryRegionProgramReReadsAndReplansToTheSamePlan) {
  const std::vector<std::filesystem::path> paths = ReplanPrograms();
  ASSERT_GE(paths.size(), 13u);
  for (const std::filesystem::path& path : paths) {
    absl::StatusOr<std::string> text = ReadFile(path.string());
    ASSERT_TRUE(text.ok()) << text.status();
    absl::StatusOr<Program> parsed = ParseProgram(*text, path.string());
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    for (const auto& dims : ReplanBindings(*parsed)) {
      for (const char* pack : {"auto", "in-order"}) {
        RegionPlanOptions options;
        options.pack = pack;
        std::string where = path.filename().string() + " --pack " + pack;
        for (const auto& [name, value] : dims) where += " --dim " + name + "=" + std::to_string(value);
        SCOPED_TRACE(where);
        absl::StatusOr<testing_regions::Planned> first = testing_regions::PlanText(*text, options, dims);
        ASSERT_TRUE(first.ok()) << first.status();
        const std::string emitted =
            PrintProgram(CommandProgram(first->program, first->analysis, first->plan));
        absl::StatusOr<Program> reread = ParseProgram(emitted, "cmd.mpir");
        ASSERT_TRUE(reread.ok()) << reread.status() << "\n" << emitted;
        EXPECT_EQ(PrintProgram(*reread), emitted);
        absl::StatusOr<testing_regions::Planned> again =
            testing_regions::PlanText(emitted, options, dims);
        ASSERT_TRUE(again.ok()) << again.status() << "\n" << emitted;

        // Each allocation of the first plan is one buffer of the same size.
        std::map<std::string, Bytes> allocations;
        for (const Resource& r : first->plan.regions->resources) {
          if (r.kind != ResourceKind::kPool) allocations[r.name] = r.size_bytes;
        }
        std::map<std::string, Bytes> replanned;
        for (const Op& op : again->program.ops) {
          if (op.opcode != "resource.alloca" && op.opcode != "resource.constants") continue;
          const ValueId v = op.results.front();
          replanned[again->program.values[v].name] =
              again->analysis.buffers.buffers[again->analysis.value_buffer[v]].size;
        }
        EXPECT_EQ(replanned, allocations) << emitted;
        for (const RegionInfo& region : again->plan.regions->regions) {
          EXPECT_EQ(region.slab_bytes, 0) << "@" << region.name;
        }
      }
    }
  }
}

}  // namespace
}  // namespace memplan
