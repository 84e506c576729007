// Bad inputs through the memplan binary: each kind exits 2 with a located
// `path:line:col: error: ...` message, and never writes an output file.
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::WriteText;

struct BadInput {
  const char* name;
  const char* file;       // file name (the extension picks the format)
  std::string contents;
  const char* location;   // expected "line:col" after the path
  const char* message;    // expected text after "error: "
};

// Keeps gtest from printing the raw bytes of a case in test names and logs.
void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsTwoWithALocatedErrorAndWritesNothing) {
  const BadInput& c = GetParam();
  const std::string dir = FreshDir();
  const std::string path = dir + "/" + c.file;
  const std::string json = dir + "/plan.json";
  WriteText(path, c.contents);
  CliRun r = Memplan("plan " + path + " --json " + json);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, StartsWith(path + ":" + c.location + ": error: ")) << r.err;
  EXPECT_THAT(r.err, HasSubstr(c.message));
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(json));
  // stats reads the same input and fails the same way.
  EXPECT_EQ(Memplan("stats " + path).exit_code, 2);
  std::filesystem::remove_all(dir);
}

std::string LongLine() { return "id,lower,upper,size\n" + std::string(1000000, '1') + "\n"; }

INSTANTIATE_TEST_SUITE_P(
    Kinds, BadInputTest,
    ::testing::Values(
        BadInput{"CsvWrongFieldCount", "a.csv", "id,lower,upper,size\nb1,0,3\n", "2:7",
                 "expected 4 fields"},
        BadInput{"CsvNegativeSize", "a.csv", "id,lower,upper,size\nb1,0,3,-4\n", "2:8",
                 "size"},
        BadInput{"CsvUpperNotAfterLower", "a.csv", "id,lower,upper,size\nb1,5,5,4\n", "2:6",
                 "upper"},
        BadInput{"CsvMissingHeader", "a.csv", "b1,0,3,4\n", "1:1", "missing header"},
        BadInput{"CsvNotANumber", "a.csv", "id,lower,upper,size\nb1,zero,3,4\n", "2:4",
                 "lower"},
        BadInput{"CsvEmptyFile", "a.csv", "", "1:1", "empty"},
        BadInput{"CsvLineTooLong", "a.csv", LongLine(), "2:65537", "65536"},
        BadInput{"CsvNotUtf8", "a.csv", "id,lower,upper,size\nb\xff,0,3,4\n", "2:2", "UTF-8"},
        BadInput{"IrUnknownOpcode", "p.mpir",
                 "entry func @main(%x: f32[4]) {\n  %y = frobnicate(%x) : f32[4]\n  return %y\n}\n",
                 "2:8", "unknown opcode"},
        BadInput{"IrTruncated", "p.mpir", "entry func @main(%x: f32[4]) {\n  %y = exp(%x) : f32[4]\n",
                 "3:1", "end of input"},
        BadInput{"IrEmptyFile", "p.mpir", "", "1:1", "expected a computation"},
        BadInput{"IrNotUtf8", "p.mpir", "# caf\xc3\n", "1:6", "UTF-8"},
        BadInput{"IrLineTooLong", "p.mpir", "#" + std::string(1000000, 'x') + "\n", "1:65537",
                 "65536"},
        BadInput{"IrUnknownValue", "p.mpir",
                 "entry func @main(%x: f32[4]) {\n  %y = exp(%q) : f32[4]\n  return %y\n}\n",
                 "2:12", "%q"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

TEST(BadInputTest, MissingFileExitsTwo) {
  CliRun r = Memplan("plan /nonexistent/x.mpir");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("/nonexistent/x.mpir: error: "));
}

TEST(BadInputTest, BadFlagsExitTwo) {
  const std::string example = std::string(MEMPLAN_SOURCE_DIR) + "/examples/basic.mpir";
  EXPECT_EQ(Memplan("plan " + example + " --algorithm nope").exit_code, 2);
  EXPECT_EQ(Memplan("plan " + example + " --alignment -4").exit_code, 2);
  EXPECT_EQ(Memplan("plan " + example + " --capacity 12XB").exit_code, 2);
  EXPECT_EQ(Memplan("plan " + example + " --dim batch").exit_code, 2);
  EXPECT_EQ(Memplan("plan").exit_code, 2);
  EXPECT_EQ(Memplan("frobnicate").exit_code, 2);
  EXPECT_EQ(Memplan("").exit_code, 2);
}

TEST(BadInputTest, UnwritableOutputExitsTwoBeforePlanning) {
  const std::string example = std::string(MEMPLAN_SOURCE_DIR) + "/examples/basic.mpir";
  CliRun r = Memplan("plan " + example + " --json /nonexistent/dir/plan.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/dir/plan.json: error: cannot write"));
}

}  // namespace
}  // namespace memplan
