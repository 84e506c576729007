// Regressions from a user test of the memplan binary: output paths that are
// symbolic links or special files (a FIFO stands in for /dev/null: tests
// never write to a device), two outputs naming one file through different
// spellings, empty output paths and `--json -`, the time-step limit, and
// verify given a lifetime CSV for a plan made for an ONNX model.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;
using onnx::TensorProto;

constexpr const char* kCsv = "id,lower,upper,size\na,0,2,8\nb,1,3,16\n";

class OutputsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir();
    csv_ = dir_ + "/in.csv";
    WriteText(csv_, kCsv);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun MemplanHere(const std::string& args) { return testing_cli::MemplanIn(dir_, args); }

  // The JSON `memplan plan in.csv --json FILE` writes to a regular file.
  std::string PlanJson() {
    CliRun r = MemplanHere("plan in.csv --quiet --json reference.json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string text = Slurp(dir_ + "/reference.json");
    fs::remove(dir_ + "/reference.json");
    return text;
  }

  std::string dir_, csv_;
};

TEST_F(OutputsCliTest, JsonIntoAFifoIsWrittenThroughIt) {
  const std::string fifo = dir_ + "/pipe.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    if (fd < 0) return;
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0) received.append(buffer, n);
    ::close(fd);
  });
  CliRun r = MemplanHere("plan in.csv --quiet --json pipe.json");
  // Release the reader if memplan never opened the FIFO (the test then fails).
  const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (unblock >= 0) ::close(unblock);
  reader.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::is_fifo(fifo));  // still a FIFO, not replaced by a file
  EXPECT_EQ(received, PlanJson());
}

TEST_F(OutputsCliTest, JsonThroughASymlinkWritesItsTarget) {
  fs::create_directory(dir_ + "/real");
  WriteText(dir_ + "/real/plan.json", "old");
  fs::create_symlink("real/plan.json", dir_ + "/link.json");
  // A dangling link: its target is created.
  fs::create_symlink("real/new.svg", dir_ + "/dangling.svg");
  CliRun r = MemplanHere("plan in.csv --quiet --json link.json --svg dangling.svg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ + "/link.json"));
  EXPECT_TRUE(fs::is_symlink(dir_ + "/dangling.svg"));
  EXPECT_EQ(Slurp(dir_ + "/real/plan.json"), PlanJson());
  EXPECT_THAT(Slurp(dir_ + "/real/new.svg"), HasSubstr("\n<svg "));
  // No temporary left beside the link or the targets.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_ + "/real")) ++entries;
  EXPECT_EQ(entries, 2);
}

TEST_F(OutputsCliTest, TwoOutputsNamingOneFileDifferently) {
  fs::create_directory(dir_ + "/sub");
  fs::create_directory(dir_ + "/real");
  fs::create_directory_symlink("real", dir_ + "/link");
  const struct {
    const char* flags;
    const char* message;
  } cases[] = {
      {"--json a.json --html ./a.json", "./a.json: error: --json and --html name the same file"},
      {"--json a.json --svg sub/../a.json",
       "sub/../a.json: error: --json and --svg name the same file"},
      {"--svg real/a.json --html link/a.json",
       "link/a.json: error: --svg and --html name the same file"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.flags);
    CliRun r = MemplanHere(std::string("plan in.csv ") + c.flags);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, std::string(c.message) + "\n");
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(dir_ + "/a.json"));
    EXPECT_FALSE(fs::exists(dir_ + "/real/a.json"));
  }
}

TEST_F(OutputsCliTest, EmptyOutputPathsAreUsageErrors) {
  for (const std::string flag : {"--json", "--svg", "--html", "--emit-ir"}) {
    SCOPED_TRACE(flag);
    CliRun r = Memplan("plan " + csv_ + " " + flag + " ''");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "memplan: error: " + flag + " needs a file name\n");
    EXPECT_EQ(r.out, "");
  }
}

// A flag given where a file name belongs (a user's `--json -q` wrote a file
// named -q) is refused; ./-q still names that file.
TEST_F(OutputsCliTest, AFlagIsNotAnOutputFileName) {
  const struct {
    const char* command;
    const char* message;
  } cases[] = {
      {"plan in.csv --json -q", "--json needs a file name, not '-q' (write ./-q for a file of that name)"},
      {"plan in.csv --csv --quiet", "--csv needs a file name, not '--quiet' (write ./--quiet for a file of that name)"},
      {"sweep in.csv --csv -x", "--csv needs a file name, not '-x' (write ./-x for a file of that name)"},
      {"compare in.csv --json -q", "--json needs a file name, not '-q' (write ./-q for a file of that name)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.command);
    CliRun r = MemplanHere(c.command);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, std::string("memplan: error: ") + c.message + "\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(dir_ + "/-q"));
  CliRun named = MemplanHere("plan in.csv -q --json ./-q");
  EXPECT_EQ(named.exit_code, 0) << named.err;
  EXPECT_TRUE(fs::exists(dir_ + "/-q"));
}

TEST_F(OutputsCliTest, JsonDashWritesThePlanToStandardOutput) {
  CliRun r = MemplanHere("plan in.csv --json - --svg map.svg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, PlanJson());  // the JSON alone, no summary
  EXPECT_FALSE(fs::exists(dir_ + "/-"));
  EXPECT_THAT(Slurp(dir_ + "/map.svg"), HasSubstr("\n<svg "));

  for (const std::string flag : {"--svg", "--html", "--emit-ir"}) {
    SCOPED_TRACE(flag);
    CliRun bad = MemplanHere("plan in.csv --json - " + flag + " -");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_EQ(bad.err, "memplan: error: " + flag +
                           " cannot write to standard output ('-'); only --json can\n");
    EXPECT_EQ(bad.out, "");
  }
}

TEST_F(OutputsCliTest, UpperPastTheTimeLimitIsRejectedAtItsField) {
  const std::string csv = dir_ + "/late.csv";
  WriteText(csv, "id,lower,upper,size\na,0,9223372036854775807,8\n");
  const std::string saved = dir_ + "/saved.json";
  WriteText(saved, R"({"schema": "memplan.plan/1", "input_options": {"alias": true, "dims": {}}})");
  for (const std::string& args : {"plan " + csv + " --json " + dir_ + "/p.json", "stats " + csv,
                                  "verify " + csv + " " + saved}) {
    SCOPED_TRACE(args);
    CliRun r = Memplan(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, csv + ":2:5: error: upper 9223372036854775807 is above the limit of 2^62 "
                           "(4611686018427387904) time steps\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(dir_ + "/p.json"));
}

TEST_F(OutputsCliTest, UpperAtTheTimeLimitPlansAndVerifies) {
  const std::string csv = dir_ + "/late.csv";
  WriteText(csv, "id,lower,upper,size\na,4611686018427387903,4611686018427387904,8\n");
  const std::string json = dir_ + "/p.json";
  CliRun r = Memplan("plan " + csv + " --quiet --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Slurp(json), HasSubstr("\"time_steps\": 4611686018427387904"));
  CliRun v = Memplan("verify " + csv + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out, json + ": plan verified: 1 buffer, transient extent 8 bytes, lower bound 8 "
                          "bytes\n");
}

TEST_F(OutputsCliTest, VerifyOfAnOnnxPlanAgainstACsvSaysSo) {
  testing::OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {"batch", 4}).Output("y");
  b.Node("Relu", {"x"}, {"y"});
  const std::string model = b.Write("outputs_cli_relu.onnx");
  const struct {
    const char* flags;
    const char* recorded;
  } cases[] = {{"--no-alias --dim batch=2", "--no-alias --dim batch=2"},
               {"--dim batch=2", "--dim batch=2"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.flags);
    const std::string json = dir_ + "/na.json";
    CliRun r = Memplan("plan " + model + " " + c.flags + " --quiet --json " + json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    CliRun v = Memplan("verify " + csv_ + " " + json);
    EXPECT_EQ(v.exit_code, 2);
    EXPECT_EQ(v.err, json + ": error: this plan was made for an ONNX model with " + c.recorded +
                         " (input '" + model + "'), but the input given is a lifetime CSV\n");
    EXPECT_EQ(v.out, "");
  }
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

// /dev/stdout on a pipe leads through /proc/self/fd/1 to "pipe:[N]", a path
// no file has: the output is written through the path as given.
TEST_F(OutputsCliTest, JsonToDevStdoutOnAPipe) {
  CliRun r = testing_cli::RunMemplan(
      "cd " + dir_ + " && ", "plan in.csv --quiet --json /dev/stdout | cat");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, PlanJson());
}

}  // namespace
}  // namespace memplan
