// Regressions from a CLI polish pass: outputs clobbering each other through
// a dangling symbolic link, output permissions kept on replace, CLI11 parse
// errors in memplan's own words, verify --quiet, the stats profile's column
// alignment, and a mistyped --dim name reported before a shape inference
// error.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Slurp;
using testing_cli::WriteText;

constexpr const char* kTwoBufferCsv = "id,lower,upper,size\na,0,2,8\nb,1,3,16\n";

class PolishCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir();
    WriteText(dir_ + "/in.csv", kTwoBufferCsv);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun MemplanHere(const std::string& args) { return testing_cli::MemplanIn(dir_, args); }

  std::string dir_;
};

TEST_F(PolishCliTest, ADanglingLinkToAnotherOutputIsTheSameFile) {
  // al.json -> a.json, which does not exist: writing --svg through the link
  // would create a.json, the --json output.
  fs::create_symlink("a.json", dir_ + "/al.json");
  CliRun r = MemplanHere("plan in.csv --json a.json --svg al.json -q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "al.json: error: --json and --svg name the same file\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir_ + "/a.json"));

  // A chain of two links, the last one dangling into a subdirectory.
  fs::create_directory(dir_ + "/sub");
  fs::create_symlink("sub/l2", dir_ + "/l1");
  fs::create_symlink("../b.svg", dir_ + "/sub/l2");
  r = MemplanHere("plan in.csv --svg b.svg --html l1 -q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "l1: error: --svg and --html name the same file\n");
  EXPECT_FALSE(fs::exists(dir_ + "/b.svg"));
}

TEST_F(PolishCliTest, ReplacingAnOutputKeepsItsPermissions) {
  WriteText(dir_ + "/plan.json", "old");
  ASSERT_EQ(::chmod((dir_ + "/plan.json").c_str(), 0640), 0);
  fs::create_symlink("plan.json", dir_ + "/link.json");
  CliRun r = MemplanHere("plan in.csv --json link.json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat st;
  ASSERT_EQ(::stat((dir_ + "/plan.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_NE(Slurp(dir_ + "/plan.json"), "old");
}

// Runs `args` in the test's directory and expects exit 2 with exactly
// `message` (plus a newline) on stderr and nothing on stdout.
#define EXPECT_USAGE_ERROR(args, message)         \
  do {                                             \
    SCOPED_TRACE(args);                            \
    const CliRun r = MemplanHere(args);            \
    EXPECT_EQ(r.exit_code, 2);                     \
    EXPECT_EQ(r.err, std::string(message) + "\n"); \
    EXPECT_EQ(r.out, "");                          \
  } while (false)

TEST_F(PolishCliTest, ParseErrorsReadAsSentences) {
  ASSERT_EQ(MemplanHere("plan in.csv -q --json plan.json").exit_code, 0);
  EXPECT_USAGE_ERROR("plan in.csv --json a1.json --json a2.json",
                     "memplan: error: --json given more than once (see memplan --help)");
  EXPECT_USAGE_ERROR("verify in.csv plan.json --alignment 4",
                     "memplan: error: verify does not take --alignment (the plan records it) (see "
                     "memplan --help)");
  EXPECT_USAGE_ERROR("verify in.csv plan.json extra --frobnicate",
                     "memplan: error: unexpected argument 'extra' for 'verify' (see memplan --help)");
  EXPECT_USAGE_ERROR("stats in.csv --json x.json",
                     "memplan: error: unexpected argument '--json' for 'stats' (see memplan --help)");
  EXPECT_USAGE_ERROR("targets x",
                     "memplan: error: unexpected argument 'x' for 'targets' (see memplan --help)");
  EXPECT_USAGE_ERROR("--frobnicate", "memplan: error: unexpected argument '--frobnicate' before "
                                     "the command (see memplan --help)");
  // Typos of a flag or a command get the closest name.
  EXPECT_USAGE_ERROR("plan in.csv --fast-memroy 2MiB",
                     "memplan: error: unexpected argument '--fast-memroy' for 'plan' (did you mean "
                     "--fast-memory?) (see memplan --help)");
  EXPECT_USAGE_ERROR("plan in.csv --algoritm=exact",
                     "memplan: error: unexpected argument '--algoritm=exact' for 'plan' (did you "
                     "mean --algorithm?) (see memplan --help)");
  EXPECT_USAGE_ERROR("pln in.csv", "memplan: error: unknown command 'pln' (did you mean plan? "
                                   "expected plan, verify, execute, stats, schedule, compare, "
                                   "sweep or targets; see memplan --help)");
  EXPECT_FALSE(fs::exists(dir_ + "/a1.json"));
  EXPECT_FALSE(fs::exists(dir_ + "/a2.json"));
}

TEST_F(PolishCliTest, VerifyQuietPrintsNothingOnSuccessOnly) {
  ASSERT_EQ(MemplanHere("plan in.csv -q --json plan.json").exit_code, 0);
  for (const char* flag : {"-q", "--quiet"}) {
    SCOPED_TRACE(flag);
    const CliRun r = MemplanHere(std::string("verify in.csv plan.json ") + flag);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
  }
  // Without -q: the success line.
  CliRun r = MemplanHere("verify in.csv plan.json");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "plan.json: plan verified: 2 buffers, transient extent 24 bytes, lower bound 24 "
                   "bytes\n");
  // A failure is still reported: buffer a moved onto b's bytes.
  std::string plan = Slurp(dir_ + "/plan.json");
  const size_t at = plan.find("\"offset\":16");
  ASSERT_NE(at, std::string::npos);
  plan.replace(at, 11, "\"offset\":8");
  WriteText(dir_ + "/bad.json", plan);
  r = MemplanHere("verify in.csv bad.json -q");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "bad.json: error: verification failed: buffer 'b' (id 1) allocation 0 (space "
                   "0, bytes [0, 16), time [1, 2]) overlaps buffer 'a' (id 0) allocation 0 "
                   "(space 0, bytes [8, 16), time [0, 1]) at time 1\n");
  EXPECT_EQ(r.out, "");
}

TEST_F(PolishCliTest, StatsProfileBarsStartAtOneColumn) {
  // Times up to 4000000000 (10 digits, wider than the 7-character minimum)
  // and a peak of 2^40 bytes (13 digits): the label columns widen to fit.
  WriteText(dir_ + "/big.csv",
            "id,lower,upper,size\na,0,4000000000,1099511627776\nb,3000000000,4000000000,"
            "1099511627776\n");
  const CliRun r = MemplanHere("stats big.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string heading = "live bytes over time (activations, max per band):\n";
  const size_t start = r.out.find(heading);
  ASSERT_NE(start, std::string::npos) << r.out;
  std::vector<std::string> lines;
  for (size_t at = start + heading.size(); at < r.out.size();) {
    const size_t end = r.out.find('\n', at);
    lines.push_back(r.out.substr(at, end - at));
    at = end + 1;
  }
  ASSERT_EQ(lines.size(), 16u);
  EXPECT_EQ(lines.front(), "  [         0,  249999999]  1099511627776 " + std::string(20, '#'));
  EXPECT_EQ(lines.back(), "  [3750000000, 3999999999]  2199023255552 " + std::string(40, '#'));
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    EXPECT_EQ(line.find('#'), 42u);
  }
}

// A mistyped --dim name is reported before the shape inference error that
// another binding causes (unk__0=8 clashes with a static dim in this model).
TEST_F(PolishCliTest, AnUnknownDimNameComesBeforeAShapeInferenceError) {
  const std::string model =
      std::string(MEMPLAN_SHARED_DIR) + "/data/onnx/torchvision/deeplabv3_resnet50.onnx";
  if (!fs::exists(model)) GTEST_SKIP() << model << " is absent";
  CliRun r = MemplanHere("plan " + model + " --dim bach=2 --dim unk__0=8 -q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, model + ": error: --dim bach=2: the model has no symbolic dim 'bach' (its "
                           "inputs have no symbolic dims)\n");
  // unk__0 alone is a dim of the model: the inference error remains.
  r = MemplanHere("plan " + model + " --dim unk__0=8 -q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::StartsWith(model + ": error: ONNX shape inference failed at node "));
}

}  // namespace
}  // namespace memplan
