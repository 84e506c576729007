// `memplan compare` end to end through the binary: the table on a
// hand-worked CSV, its JSON form, agreement with `memplan plan` on a bundled
// model, and bad input.
#include <filesystem>
#include <map>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::MemplanIn;
using testing_cli::Slurp;

const std::string kCsvDir = MEMPLAN_SOURCE_DIR "/tests/data/csv";
const std::string kExamples = MEMPLAN_SOURCE_DIR "/examples";

// name -> arena bytes of a memplan.compare/1 document.
std::map<std::string, long long> ArenaBytes(const nlohmann::json& doc) {
  std::map<std::string, long long> bytes;
  for (const auto& row : doc["strategies"]) bytes[row["name"]] = row["arena_bytes"];
  return bytes;
}

TEST(CompareCliTest, HandWorkedCsvTable) {
  // Every figure is worked by hand in tests/packing/peers/.
  const CliRun r = MemplanIn(kCsvDir, "compare compare_peers.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, EXPECTED_TABLE);
}

}  // namespace
}  // namespace memplan
