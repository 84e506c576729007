// --dim for text IR through the memplan binary: bindings of `dim` declarations
// change every symbolic size, the plan records them and `verify` reuses them;
// bindings the program cannot take are errors (exit 2).
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;

constexpr char kDynamic[] =
    "dim %n <= 1024\n"
    "entry func @main(%x: (4*%n)) {\n"
    "  %y = exp(%x) : (4*%n)\n"
    "  %z = relu(%y) : (4*%n) tied(%y)\n"
    "  return %z\n"
    "}\n";

class TextIrDimsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir();
    input_ = dir_ + "/dynamic.mpir";
    WriteText(input_, kDynamic);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The sizes of the plan's buffers, in buffer order.
  std::vector<long long> BufferSizes(const std::string& json) {
    std::vector<long long> sizes;
    const nlohmann::json plan = nlohmann::json::parse(Slurp(json));
    for (const auto& b : plan["buffers"]) sizes.push_back(b["size"].get<long long>());
    return sizes;
  }

  std::string dir_;
  std::string input_;
};

TEST_F(TextIrDimsCliTest, BindingChangesSizesAndVerifyReusesIt) {
  const std::string json = dir_ + "/plan.json";
  CliRun r = Memplan("plan " + input_ + " -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(BufferSizes(json), (std::vector<long long>{4096, 4096}));  // at the bound
  r = Memplan("plan " + input_ + " -q --dim n=16 --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(BufferSizes(json), (std::vector<long long>{64, 64}));
  EXPECT_EQ(nlohmann::json::parse(Slurp(json))["input_options"]["dims"], nlohmann::json({{"n", 16}}));
  CliRun v = Memplan("verify " + input_ + " " + json + " -q");
  EXPECT_EQ(v.exit_code, 0) << v.err;
  // A lifetime CSV cannot take the recorded binding.
  const std::string csv = dir_ + "/x.csv";
  WriteText(csv, "id,lower,upper,size\nb,0,1,4\n");
  v = Memplan("verify " + csv + " " + json);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(v.err, json + ": error: this plan was made for memplan text IR with --dim n=16 (input '" + input_ +
                       "'), but the input given is a lifetime CSV\n");
}

TEST_F(TextIrDimsCliTest, BindingsTheProgramCannotTake) {
  CliRun r = Memplan("plan " + input_ + " --dim n=2000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, input_ + ":1:5: error: --dim n=2000 exceeds the bound of %n (1024)\n");
  r = Memplan("plan " + input_ + " --dim m=2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, input_ + ": error: --dim m=2: the program has no dim %m (its dims: %n)\n");
  const std::string basic = MEMPLAN_SOURCE_DIR "/examples/basic.mpir";
  r = Memplan("stats " + basic + " --dim batch=2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, basic + ": error: --dim batch=2: the program has no dim %batch (it declares no dims)\n");
}

TEST_F(TextIrDimsCliTest, UnboundedDimNeedsABinding) {
  const std::string input = dir_ + "/unbounded.mpir";
  WriteText(input, "dim %n <= 8\ndim %m\nentry func @main(%x: (4*%m)) {}\n");
  CliRun r = Memplan("plan " + input);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, input + ":2:5: error: dim %m has no bound and no binding: declare `dim %m <= N` or pass "
                           "--dim m=VALUE\n");
  r = Memplan("plan " + input + " --dim m=3 -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace memplan
