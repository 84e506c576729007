// Subviews at offsets given by dims (`view(%x, align(4*%n, 64))`, issue 31
// item 8) through the memplan binary: a region program planned end to end
// with its symbolic offsets in the JSON plan and the command form at two
// bindings, the command form read back and planned again, and bad views
// refused with a located error (exit 2).
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;
using DynViewJson = nlohmann::json;

// %tail: a window of the slab buffer %buf at align(4*%n, 64), written in
// place by %t; %w: the captured %in from byte %n + 64.
const std::string kDynamicSubview = MEMPLAN_SOURCE_DIR "/tests/data/regions/dynamic_subview.mpir";

class RegionDynamicViewCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  // Plans `input` with `flags`, writing the JSON plan and the command form
  // under `tag`; exit 0 expected.
  DynViewJson PlanIt(const std::string& input, const std::string& tag, const std::string& flags) {
    const std::string json = dir_ + "/" + tag + ".json";
    CliRun r = Memplan("plan " + input + " -q --json " + json + " --emit-ir " + CommandForm(tag) +
                       " " + flags);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return DynViewJson::parse(Slurp(json));
  }
  std::string CommandForm(const std::string& tag) const { return dir_ + "/" + tag + ".cmd.mpir"; }

  std::string dir_;
};

const DynViewJson& DynViewBuffer(const DynViewJson& plan, const std::string& name) {
  for (const DynViewJson& b : plan["buffers"]) {
    if (b["name"] == name) return b;
  }
  ADD_FAILURE() << "no buffer " << name;
  return plan;
}

// "kind op: resource[offset for length]=bytes+bytes access %value; ..." per
// command of the region's execute step.
std::vector<std::string> DynViewCommands(const DynViewJson& plan) {
  std::vector<std::string> lines;
  for (const DynViewJson& step : plan["regions"]["steps"]) {
    if (step["kind"] != "execute") continue;
    for (const DynViewJson& c : step["commands"]) {
      std::string line = c["kind"].get<std::string>() + " " + c["op"].get<std::string>() + ":";
      for (const DynViewJson& r : c["ranges"]) {
        line += " " + r["resource"].get<std::string>() + "[" + r["offset"].get<std::string>() +
                " for " + r["length"].get<std::string>() + "]=" + r["offset_bytes"].dump() + "+" +
                r["length_bytes"].dump() + " " + r["access"].get<std::string>() + " %" +
                r["value"].get<std::string>();
      }
      lines.push_back(line);
    }
  }
  return lines;
}

TEST_F(RegionDynamicViewCliTest, OffsetsStaySymbolicAndEvaluateAtEachBinding) {
  struct Binding {
    const char* flags;
    std::int64_t tail;      // align(4*%n, 64)
    std::int64_t w;         // %n + 64
    std::int64_t n;         // %w's length
    std::int64_t slab;      // align(4*%n, 64) + 256
    std::int64_t external;  // 2*%n + 64
  };
  for (const Binding& b : {Binding{"", 4096, 1088, 1024, 4352, 2112},
                           Binding{"--dim n=10", 64, 74, 10, 320, 84},
                           Binding{"--dim n=17 --pack in-order", 128, 81, 17, 384, 98}}) {
    SCOPED_TRACE(b.flags);
    const DynViewJson plan = PlanIt(kDynamicSubview, "p", b.flags);
    const DynViewJson& buf = DynViewBuffer(plan, "buf");
    EXPECT_EQ(buf["values"], DynViewJson({"buf", "tail", "t"}));
    EXPECT_EQ(buf["value_offsets"], DynViewJson({0, b.tail, b.tail}));
    EXPECT_EQ(buf["value_offset_exprs"],
              DynViewJson({"0", "align(4*%n, 64)", "align(4*%n, 64)"}));
    EXPECT_EQ(buf["size"], b.slab);
    EXPECT_EQ(buf["pool"], "r.slab");
    const DynViewJson& x = DynViewBuffer(plan, "x");
    EXPECT_EQ(x["values"], DynViewJson({"x", "in", "w"}));
    EXPECT_EQ(x["value_offsets"], DynViewJson({0, 0, b.w}));
    EXPECT_EQ(x["value_offset_exprs"], DynViewJson({"0", "0", "%n + 64"}));
    // A buffer without a dynamic view has no value_offset_exprs.
    EXPECT_FALSE(DynViewBuffer(plan, "y").contains("value_offset_exprs"));

    const std::string n = std::to_string(b.n), ext = std::to_string(b.external),
                      slab = std::to_string(b.slab), tail = std::to_string(b.tail),
                      w = std::to_string(b.w);
    EXPECT_EQ(DynViewCommands(plan),
              (std::vector<std::string>{
                  "dispatch buf: external[0 for 2*%n + 64]=0+" + ext + " read %in r.slab[0 for "
                      "align(4*%n, 64) + 256]=0+" + slab + " write %buf",
                  "dispatch t: r.slab[align(4*%n, 64) for 256]=" + tail + "+256 read-write %t",
                  "dispatch o: r.slab[align(4*%n, 64) for 256]=" + tail + "+256 read %t "
                      "external[%n + 64 for %n]=" + w + "+" + n + " read %w "
                      "r.results.external[0 for 64]=0+64 write %o"}));

    // The command form keeps the expressions, whatever the binding.
    const std::string cmd = Slurp(CommandForm("p"));
    EXPECT_THAT(cmd, HasSubstr("  %r.slab, %r.slab.ready = resource.alloca(%ready) : "
                               "(align(4*%n, 64) + 256) transient, timepoint {affinity = \"gpu0\"}\n"));
    EXPECT_THAT(cmd, HasSubstr("  cmd.dispatch(%r/r.slab[align(4*%n, 64) for 256]) {access = "
                               "[\"read-write\"], values = [\"t\"], op = \"dispatch\"}\n"));
    EXPECT_THAT(cmd, HasSubstr("  cmd.dispatch(%r/r.slab[align(4*%n, 64) for 256], %r/x[%n + 64 "
                               "for %n], %r/r.results.external[0 for 64]) {access = [\"read\", "
                               "\"read\", \"write\"], values = [\"t\", \"w\", \"o\"], op = "
                               "\"dispatch\"}\n"));
  }
}

// The command form re-reads: planned again at the same binding it gives the
// slab one buffer of the slab's size, and it prints back unchanged.
TEST_F(RegionDynamicViewCliTest, CommandFormReReadsAndPlansAgain) {
  for (const auto& [flags, slab] : std::vector<std::pair<std::string, std::int64_t>>{
           {"", 4352}, {"--dim n=10", 320}, {"--dim n=1 --pack in-order", 320}}) {
    SCOPED_TRACE(flags);
    PlanIt(kDynamicSubview, "first", flags);
    const std::string emitted = Slurp(CommandForm("first"));
    const DynViewJson again = PlanIt(CommandForm("first"), "again", flags);
    EXPECT_EQ(DynViewBuffer(again, "r.slab")["size"], slab);
    EXPECT_EQ(DynViewBuffer(again, "r.slab")["pool"], "transient");
    EXPECT_EQ(DynViewBuffer(again, "r.results.external")["size"], 64);
    // Nothing of the command form is a region slab any more.
    for (const DynViewJson& region : again["regions"]["regions"]) EXPECT_EQ(region["slab_bytes"], 0);
    // The command form of the command form keeps the region's ranges as
    // written (its parameters renamed apart from the host's allocations).
    EXPECT_THAT(Slurp(CommandForm("again")),
                HasSubstr("  cmd.dispatch(%r/r.slab.1[align(4*%n, 64) for 256], %r/x.1[%n + 64 "
                          "for %n], %r/r.results.external.1[0 for 64])"));
    EXPECT_THAT(emitted, HasSubstr("dim %n <= 1024\n"));
  }
}

// A region that views a value another region placed at an offset given by
// dims: the region verifier follows the view through the execute's operand
// and the first region's return (it used to take the value's place at the
// bound, 4096, and refuse the plan as a bug).
TEST_F(RegionDynamicViewCliTest, ViewOfAValueAnotherRegionPlacedAtADynamicOffset) {
  const std::string path = dir_ + "/two.mpir";
  WriteText(path,
            "dim %n <= 1024\n"
            "dim %m <= 128\n"
            "entry func @main(%x: (2*%n + 64) external, %ready: timepoint) {\n"
            "  %y, %t1 = execute(%x, %ready) : 256, timepoint {callee = @a}\n"
            "  %z, %t2 = execute(%y, %t1) : 64, timepoint {callee = @b}\n"
            "  return %z, %t2\n"
            "}\n"
            "region @a(%in: (2*%n + 64), %await: timepoint) affinity(\"gpu0\") {\n"
            "  %buf = dispatch(%in) : (align(4*%n, 64) + 256)\n"
            "  %tail = subview(%buf) : 256 view(%buf, align(4*%n, 64))\n"
            "  return %tail, %await\n"
            "}\n"
            "region @b(%p: 256, %w: timepoint) affinity(\"gpu0\") {\n"
            "  %v = subview(%p) : 128 view(%p, %m)\n"
            "  %o = dispatch(%v) : 64\n"
            "  return %o, %w\n"
            "}\n");
  for (const auto& [flags, tail, v] : std::vector<std::tuple<std::string, int, int>>{
           {"", 4096, 4224}, {"--dim n=1 --dim m=3", 64, 67}}) {
    SCOPED_TRACE(flags);
    const DynViewJson plan = PlanIt(path, "two", flags);
    // One buffer from %buf in @a to %v in @b, named after its first value.
    const DynViewJson& y = DynViewBuffer(plan, "y");
    EXPECT_EQ(y["values"], DynViewJson({"y", "buf", "tail", "p", "v"}));
    EXPECT_EQ(y["value_offsets"], DynViewJson({tail, 0, tail, tail, v}));
    EXPECT_EQ(y["value_offset_exprs"],
              DynViewJson({"align(4*%n, 64)", "0", "align(4*%n, 64)", "align(4*%n, 64)",
                           "%m + align(4*%n, 64)"}));
    EXPECT_EQ(y["pool"], "a.results");
    CliRun verified = Memplan("verify " + path + " " + dir_ + "/two.json " + flags);
    EXPECT_EQ(verified.exit_code, 0) << verified.err;
  }
}

struct BadDynamicView {
  const char* name;
  const char* view;      // the line defining %w
  const char* location;  // "line:col"
  const char* message;   // expected text after "error: "
};

void PrintTo(const BadDynamicView& c, std::ostream* os) { *os << c.name; }

class RegionDynamicViewBadInputTest : public ::testing::TestWithParam<BadDynamicView> {};

TEST_P(RegionDynamicViewBadInputTest, ExitsTwoWithALocatedErrorAndWritesNothing) {
  const BadDynamicView& c = GetParam();
  const std::string dir = FreshDir();
  const std::string path = dir + "/bad.mpir", json = dir + "/plan.json", ir = dir + "/cmd.mpir";
  WriteText(path, std::string("dim %n <= 1024\n"
                              "entry func @main(%x: (2*%n + 64) external, %ready: timepoint) {\n"
                              "  %y, %done = execute(%x, %ready) : 64, timepoint {callee = @r}\n"
                              "  return %y, %done\n"
                              "}\n"
                              "region @r(%in: (2*%n + 64), %await: timepoint) affinity(\"gpu0\") {\n"
                              "  ") +
                      c.view +
                      "\n"
                      "  %o = dispatch(%w) : 64\n"
                      "  return %o, %await\n"
                      "}\n");
  CliRun r = Memplan("plan " + path + " --json " + json + " --emit-ir " + ir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, StartsWith(path + ":" + c.location + ": error: ")) << r.err;
  EXPECT_THAT(r.err, HasSubstr(c.message)) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(json));
  EXPECT_FALSE(fs::exists(ir));
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, RegionDynamicViewBadInputTest,
    ::testing::Values(
        BadDynamicView{"PastItsOperandForEveryBinding",
                       "%w = subview(%in) : (%n) view(%in, %n + 65)", "7:3",
                       "view %w (%n bytes at offset %n + 65) exceeds operand %in (2*%n + 64 bytes)"},
        BadDynamicView{"PastItsOperandForSomeBinding", "%w = subview(%in) : 128 view(%in, %n)",
                       "7:3",
                       "view %w (128 bytes at offset %n) exceeds operand %in (2*%n + 64 bytes) for "
                       "some binding of the dims within their bounds (not provably inside it: "
                       "bound the dims or align the sizes)"},
        BadDynamicView{"ExpressionEndsEarly", "%w = subview(%in) : 128 view(%in, %n +)", "7:41",
                       "expected a size (an integer, a dim %name, '(', max(...) or align(...)), "
                       "got ')'"},
        BadDynamicView{"AlignWithoutItsAlignment", "%w = subview(%in) : 64 view(%in, align(%n))",
                       "7:44", "expected ',' and the alignment, got ')'"},
        BadDynamicView{"UnknownDimInASum", "%w = subview(%in) : 64 view(%in, %k + 1)", "7:36",
                       "unknown dim %k"},
        BadDynamicView{"Subtraction", "%w = subview(%in) : 64 view(%in, 2*%n - 1)", "7:41",
                       "unexpected character '-'"}),
    [](const ::testing::TestParamInfo<BadDynamicView>& info) { return std::string(info.param.name); });

// Outside an execution region a subview's offset must be a number.
TEST(RegionDynamicViewOutsideARegion, IsRefusedLocated) {
  const std::string dir = FreshDir();
  const std::string path = dir + "/host.mpir";
  WriteText(path,
            "dim %n <= 4096\n"
            "entry func @m(%x: (4*%n)) {\n"
            "  %v = slice(%x) : (2*%n) view(%x, 2*%n)\n"
            "  %e = exp(%v) : (2*%n)\n"
            "  return %e\n"
            "}\n");
  CliRun r = Memplan("plan " + path);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, path + ":3:3: error: view %v at offset 2*%n: a subview at an offset given by "
                          "dims must be defined in an execution region (`region @r`), whose slices "
                          "keep symbolic offsets; buffers outside regions are laid out at constant "
                          "byte offsets\n");
  EXPECT_EQ(r.out, "");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace memplan
