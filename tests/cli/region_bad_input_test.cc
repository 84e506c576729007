// Bad region programs through the memplan binary: each exits 2 with a
// located `path:line:col: error: ...` and writes nothing.
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

struct BadRegion {
  const char* name;
  std::string contents;   // a text IR program
  const char* location;   // "line:col"
  const char* message;    // expected text after "error: "
  const char* flags = "";
};

void PrintTo(const BadRegion& c, std::ostream* os) { *os << c.name; }

class RegionBadInputTest : public ::testing::TestWithParam<BadRegion> {};

TEST_P(RegionBadInputTest, ExitsTwoWithALocatedErrorAndWritesNothing) {
  const BadRegion& c = GetParam();
  const std::string dir = FreshDir();
  const std::string path = dir + "/p.mpir";
  const std::string json = dir + "/plan.json", ir = dir + "/cmd.mpir";
  WriteText(path, c.contents);
  CliRun r = Memplan("plan " + path + " --json " + json + " --emit-ir " + ir + " " + c.flags);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string place = *c.location ? path + ":" + c.location : path;
  EXPECT_THAT(r.err, StartsWith(place + ": error: ")) << r.err;
  EXPECT_THAT(r.err, HasSubstr(c.message)) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(json));
  EXPECT_FALSE(std::filesystem::exists(ir));
  std::filesystem::remove_all(dir);
}

// A region program around one region body (`ops`), with a 4096-byte operand
// %t and timepoint %await.
std::string Region(const std::string& ops, const std::string& results = "%t, %await",
                   const std::string& types = "4096, timepoint") {
  return "entry func @main(%x: 4096 external, %ready: timepoint) {\n"
         "  %a, %b = execute(%x, %ready) : " + types + " {callee = @r}\n"
         "  return %a, %b\n"
         "}\n"
         "region @r(%t: 4096, %await: timepoint) affinity(\"gpu0\") {\n" + ops +
         "  return " + results + "\n}\n";
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, RegionBadInputTest,
    ::testing::Values(
        BadRegion{"CommandRangeOutsideItsResource",
                  Region("  %f = fill(%t[4000 for 200]) : 4096 tied(%t)\n", "%f, %await"), "6:15",
                  "range [4000 for 200] of %t exceeds its 4096 bytes"},
        BadRegion{"SubviewPastItsSource",
                  Region("  %v = subview(%t) : 2048 view(%t, 3000)\n"
                         "  %f = fill(%v) : 2048 tied(%v)\n",
                         "%t, %await"),
                  "6:3", "view %v (2048 bytes at offset 3000) exceeds operand %t (4096 bytes)"},
        BadRegion{"TiedResultOfAnotherSize",
                  Region("  %f = fill(%t) : 2048 tied(%t)\n", "%t, %await"), "6:3",
                  "tied result %f (2048 bytes) must have the size of operand %t (4096 bytes)"},
        BadRegion{"TimepointUsedBeforeItIsProduced",
                  "entry func @main(%x: 4096 external) {\n"
                  "  %a, %b = execute(%x, %late) : 4096, timepoint {callee = @r}\n"
                  "  %late = join() : timepoint\n"
                  "  return %a, %b\n}\n"
                  "region @r(%t: 4096, %await: timepoint) {\n  return %t, %await\n}\n",
                  "2:24", "timepoint %late is awaited before it is produced at 3:3"},
        BadRegion{"WaveOutOfOrder",
                  Region("  %s = splat() : 64 {wave = 1}\n  %u = splat() : 64 {wave = 0}\n"), "7:8",
                  "wave 0 after wave 1"},
        BadRegion{"UnboundDimWithoutABound",
                  "dim %n\n" + Region("  %s = splat() : (4*%n)\n"), "1:5",
                  "dim %n has no bound and no binding: declare `dim %n <= N` or pass --dim n=VALUE"},
        BadRegion{"ReadAfterInPlaceWrite",
                  Region("  %f = fill(%t) : 4096 tied(%t)\n  %s = dispatch(%t) : 64\n", "%f, %await"),
                  "7:8",
                  "%s reads %t after %f was written in place over %t at 6:3; a result may be tied "
                  "to an operand only at that operand's last use"},
        BadRegion{"ControlFlowInsideARegion",
                  Region("  %w = while(%t) : 4096 {cond = @c, body = @b}\n", "%w, %await") +
                      "func @c(%p: 4096) {\n  %k = compare(%p) : pred[]\n  return %k\n}\n"
                      "func @b(%q: 4096) {\n  %n = negate(%q) : 4096\n  return %n\n}\n",
                  "6:8", "while inside execution region @r: regions hold async commands only"},
        BadRegion{"ReadsAnotherRegionsResultWithoutWaiting",
                  "entry func @main(%x: 4096 external, %ready: timepoint) {\n"
                  "  %a, %ta = execute(%x, %ready) : 4096, timepoint {callee = @p}\n"
                  "  %b, %tb = execute(%a, %ready) : 4096, timepoint {callee = @q}\n"
                  "  return %b, %tb\n}\n"
                  "region @p(%i: 4096, %w0: timepoint) {\n"
                  "  %o = dispatch(%i) : 4096\n  return %o, %w0\n}\n"
                  "region @q(%j: 4096, %w1: timepoint) {\n"
                  "  %k = dispatch(%j) : 4096\n  return %k, %w1\n}\n",
                  "3:13",
                  "execute of @q reads %a, produced by region @p, without waiting for it"},
        // Fine at --dim n=2 but past 2^62 at the bound, where layouts are made.
        BadRegion{"PastTheLimitsAtThePlanningPoint",
                  "dim %n <= 4611686018427387904\n" +
                      Region("  %p = dispatch(%t) : (%n)\n  %q = dispatch(%p) : (%n)\n"),
                  "7:3", "at the dims' planning point (n=4611686018427387904)", "--dim n=2"},
        BadRegion{"CopyOfUnequalRanges",
                  Region("  %c = copy(%t[0 for 64], %t[64 for 32]) : 4096 tied(%t)\n", "%c, %await"),
                  "6:8",
                  "copy: moves 64 bytes from %t into 32 bytes of %t; the two ranges must have "
                  "equal lengths"},
        BadRegion{"CollectiveWithoutReceive",
                  Region("  %c = collective(%t) : 4096 tied(%t)\n", "%c, %await"), "6:8",
                  "collective: takes (send, receive), got 1 operands"},
        BadRegion{"ReadsAResultOfTheSameWave",
                  Region("  %p = dispatch(%t) : 64 {wave = 0}\n  %q = dispatch(%p) : 64 {wave = 0}\n"),
                  "7:8", "in wave 0, dispatch reads %p, which dispatch at 6:8 produces in the same wave"},
        BadRegion{"WritesThroughASubviewThenReadsTheParent",
                  Region("  %p = dispatch(%t) : 4096\n  %v = subview(%p) : 1024 view(%p, 1024)\n"
                         "  %w = fill(%v) : 1024 tied(%v)\n  %o = dispatch(%p, %w) : 64\n"),
                  "9:8", "%o reads %p after %w was written in place over %p at 8:3"}),
    [](const ::testing::TestParamInfo<BadRegion>& info) { return std::string(info.param.name); });

// An item over --max-allocation-size is a warning on stderr, even with -q.
TEST(RegionWarnings, GoToStderrEvenWhenQuiet) {
  const std::string dir = FreshDir();
  const std::string path = dir + "/r.mpir";
  WriteText(path, Region("  %s = splat() : 8192\n  %o = dispatch(%s) : 64\n"));
  CliRun r = Memplan("plan " + path + " --max-allocation-size 4096 -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, path + ": warning: r.slab.part1 holds s alone: it needs 8192 bytes, more than "
                          "--max-allocation-size 4096\n");
  std::filesystem::remove_all(dir);
}

TEST(RegionUsageErrors, FlagsThatDoNotApplyOrAreMalformed) {
  const std::string dir = FreshDir();
  const std::string region = dir + "/r.mpir", plain = dir + "/p.mpir", csv = dir + "/a.csv";
  WriteText(region, Region("  %s = splat() : 64\n"));
  WriteText(plain, "entry func @main(%x: 16) {\n  %y = exp(%x) : 16\n  return %y\n}\n");
  WriteText(csv, "id,lower,upper,size\nb1,0,3,4\n");
  const std::pair<std::string, std::string> cases[] = {
      {"plan " + region + " --pack nope",
       "memplan: error: --pack expects in-order or a packing algorithm: "},
      {"plan " + region + " --offset-alignment 0",
       "memplan: error: --offset-alignment 0 is outside the supported range 1 to 2^32"},
      {"plan " + region + " --max-allocation-size 0",
       "memplan: error: --max-allocation-size must be at least 1 byte"},
      {"plan " + plain + " --pack in-order",
       plain + ": error: --offset-alignment, --range-alignment, --pack and --max-allocation-size "
               "apply to programs with execution regions; this input has none"},
      {"plan " + csv + " --regions",
       csv + ": error: --regions applies only to programs (ONNX models and memplan text IR)"},
      {"plan " + plain + " --regions-per 3", "memplan: error: --regions-per applies with --regions"},
      {"plan " + plain + " --regions --regions-per 0",
       "memplan: error: --regions-per: expected an integer from 1 to 9223372036854775807, got '0'"},
      {"plan " + region + " --regions",
       region + ": error: --regions: the program has several computations"},
  };
  for (const auto& [args, message] : cases) {
    CliRun r = Memplan(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_THAT(r.err, StartsWith(message)) << args;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memplan
