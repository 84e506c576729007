// Command-line errors through the memplan binary: every one exits with its
// documented code and one `memplan: error: ...` or `path: error: ...` line,
// and writes no output file.
#include <filesystem>
#include <string>
#include <utility>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;

const std::string kBasic = MEMPLAN_SOURCE_DIR "/examples/basic.mpir";
using testing_cli::kMlp;

// Runs `args` and expects exit 2 with exactly `message` (plus a newline) on
// stderr and nothing on stdout.
void ExpectUsageError(const std::string& args, const std::string& message) {
  SCOPED_TRACE(args);
  CliRun r = Memplan(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, message + "\n");
  EXPECT_EQ(r.out, "");
}

TEST(UsageErrorsTest, ParseErrorsUseTheMemplanErrorForm) {
  ExpectUsageError("plan " + kBasic + " --frobnicate",
                   "memplan: error: unexpected argument '--frobnicate' for 'plan' (see memplan "
                   "--help)");
  ExpectUsageError("plan " + kBasic + " --alignment",
                   "memplan: error: --alignment needs a value (see memplan --help)");
  ExpectUsageError("plan " + kBasic + " --fast-memory 1MiB --max-outstanding-prefetches x",
                   "memplan: error: --max-outstanding-prefetches: expected an integer from 0 to "
                   "9223372036854775807, got 'x' (see memplan --help)");
  ExpectUsageError("plan " + kBasic + " --fast-memory 1MiB --max-repacks 99999999999999999999",
                   "memplan: error: --max-repacks: expected an integer from 0 to "
                   "9223372036854775807, got '99999999999999999999' (see memplan --help)");
  ExpectUsageError("plan " + kBasic + " --fast-memory 1MiB --max-repacks -1",
                   "memplan: error: --max-repacks: expected an integer from 0 to "
                   "9223372036854775807, got '-1' (see memplan --help)");
  ExpectUsageError("frobnicate",
                   "memplan: error: unknown command 'frobnicate' (expected plan, verify, execute, "
                   "stats, schedule, compare, sweep or targets; see memplan --help)");
  ExpectUsageError("", "memplan: error: a command is required (plan, verify, execute, stats, "
                       "schedule, compare, sweep or targets) (see memplan --help)");
  ExpectUsageError("plan", "memplan: error: INPUT is required (see memplan --help)");
  ExpectUsageError("plan " + kBasic + " --time-limit abc",
                   "memplan: error: --time-limit 'abc': expected a number (see memplan --help)");
}

// An empty file name (a script's unset variable) and a name with a newline:
// one line each, the newline escaped.
TEST(UsageErrorsTest, EmptyAndMultiLineFileNames) {
  ExpectUsageError("plan ''", "memplan: error: cannot read file: the file name is empty");
  // The shell's printf makes the newline; the message shows it as \n.
  ExpectUsageError("plan \"$(printf '/nonexistent/a\\nb.mpir')\"",
                   "/nonexistent/a\\nb.mpir: error: cannot read file: No such file or directory");
}

TEST(UsageErrorsTest, BadValuesOfMemplanFlags) {
  ExpectUsageError("plan " + kBasic + " --capacity ''",
                   "memplan: error: --capacity: invalid byte size '': expected a number of bytes such "
                   "as 1048576, 512KiB or 1.5MiB");
  ExpectUsageError("plan " + kBasic + " --capacity 12XB",
                   "memplan: error: --capacity: invalid byte size '12XB': unknown unit 'XB' (use B, "
                   "KiB, MiB, GiB, TiB, KB, MB, GB or TB)");
  ExpectUsageError("plan " + kBasic + " --alignment 0",
                   "memplan: error: --alignment 0 is outside the supported range 1 to 2^32 "
                   "(4294967296)");
  ExpectUsageError("plan " + kBasic + " --alignment 8GiB",
                   "memplan: error: --alignment 8589934592 is outside the supported range 1 to "
                   "2^32 (4294967296)");
  ExpectUsageError("plan " + kBasic + " --algorithm nope",
                   "memplan: error: unknown packing algorithm 'nope' (expected one of: auto, "
                   "best-fit-spatial, best-fit-temporal, best-fit-busiest, best-fit-start-time, "
                   "in-order, skyline-longest, skyline-area, skyline-crowded, skyline-local-search, "
                   "skyline-window-search, online-best-fit, naive, exact)");
  ExpectUsageError("plan " + kBasic + " --dim batch",
                   "memplan: error: --dim expects NAME=POSITIVE_INTEGER, got 'batch'");
  ExpectUsageError("plan " + kBasic + " --target ''",
                   "memplan: error: --target expects a preset name (memplan targets) or a JSON "
                   "file");
  ExpectUsageError("plan " + kMlp + " --fast-memory 4194305TiB",
                   "memplan: error: --fast-memory 4611687117939015680 is above the limit of 2^62 "
                   "(4611686018427387904) bytes");
  ExpectUsageError("plan " + kMlp + " --target tpu9",
                   "memplan: error: unknown target 'tpu9' (presets: edge-npu, mobile-gpu, "
                   "tpu-like, mcu-tcm-sram-psram-flash, npu-3level; or a .json file)");
  ExpectUsageError("plan " + kMlp + " --fast-memory 1MiB --picker best",
                   "memplan: error: --picker expects cost or instruction-count, got 'best'");
  ExpectUsageError("plan " + kMlp + " --fast-memory 1MiB --msa-mode fast",
                   "memplan: error: --msa-mode expects default or reference, got 'fast'");
}

TEST(UsageErrorsTest, MsaKnobsNeedFastMemory) {
  for (const char* knob :
       {"--max-outstanding-prefetches 1", "--max-outstanding-evictions 1", "--picker cost",
        "--msa-mode reference", "--max-repacks 2", "--while-trip-count 3", "--fifo-prefetches",
        "--no-cross-program-prefetch"}) {
    const std::string flag = std::string(knob).substr(0, std::string(knob).find(' '));
    ExpectUsageError("plan " + kMlp + " " + knob,
                     "memplan: error: " + flag +
                         " applies only when fast memory is planned (--fast-memory or --target)");
  }
  // With fast memory they apply.
  EXPECT_EQ(Memplan("plan " + kMlp + " --target edge-npu --msa-mode reference -q").exit_code, 0);
  ExpectUsageError("plan " + kMlp + " --emit-ir x.mpir",
                   "memplan: error: --emit-ir writes the schedule rewritten by memory space "
                   "assignment (it needs --fast-memory or --target), the command form of "
                   "execution regions or the reordered program (--reorder)");
}

TEST(UsageErrorsTest, OnnxOnlyFlagsOnOtherInputs) {
  ExpectUsageError("plan " + kBasic + " --no-alias",
                   kBasic + ": error: --no-alias applies only to ONNX models; this input is read "
                            "as memplan text IR");
  const std::string dir = FreshDir();
  const std::string csv = dir + "/x.csv";
  WriteText(csv, "id,lower,upper,size\nb1,0,3,4\n");
  ExpectUsageError("stats " + csv + " --dim batch=2",
                   csv + ": error: --dim applies only to ONNX models and memplan text IR; this "
                         "input is read as a lifetime CSV");
  ExpectUsageError("plan " + csv + " --dim batch=2 --dim batch=4",
                   "memplan: error: --dim batch is given twice (batch=2 and batch=4)");
  fs::remove_all(dir);
}

TEST(UsageErrorsTest, OutputsMayNotOverwriteTheInputOrEachOther) {
  const std::string dir = FreshDir();
  const std::string csv = dir + "/x.csv";
  const std::string contents = "id,lower,upper,size\nb1,0,3,4\n";
  WriteText(csv, contents);
  ExpectUsageError("plan " + csv + " --json " + csv,
                   csv + ": error: output path is the input file (--json)");
  // The same file under another spelling.
  ExpectUsageError("plan " + csv + " --svg " + dir + "/./x.csv",
                   dir + "/./x.csv: error: output path is the input file (--svg)");
  EXPECT_EQ(Slurp(csv), contents);
  ExpectUsageError("plan " + csv + " --json " + dir + "/out --html " + dir + "/out",
                   dir + "/out: error: --json and --html name the same file");
  ExpectUsageError("plan " + csv + " --json " + dir,
                   dir + ": error: cannot write: Is a directory");
  EXPECT_FALSE(fs::exists(dir + "/out"));
  // Nothing but the input in the directory.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(UsageErrorsTest, CapacityFailureIsLocatedAtTheInput) {
  const std::string dir = FreshDir();
  const std::string csv = dir + "/x.csv", json = dir + "/plan.json";
  WriteText(csv, "id,lower,upper,size\nb1,0,3,4\nb2,0,3,4\n");
  CliRun r = Memplan("plan " + csv + " --capacity 7 --json " + json);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, ::testing::StartsWith(csv + ": error: "));
  EXPECT_THAT(r.err, HasSubstr("does not fit"));
  EXPECT_FALSE(fs::exists(json));
  fs::remove_all(dir);
}


// A hierarchy too small for the program: a buffer larger than every level
// its ops can access says so; one that would fit a level, were the levels
// not full where it is live, says that (exit 1, located at the input, no
// plan written).
TEST(UsageErrorsTest, HierarchyThatDoesNotFitSaysWhy) {
  const std::string target = MEMPLAN_SOURCE_DIR "/tests/data/msa/tiny_3level_target.json";
  const std::string dir = FreshDir();
  const std::string mlp = MEMPLAN_SOURCE_DIR "/examples/mlp.mpir";
  const std::string five = MEMPLAN_SOURCE_DIR "/tests/data/msa/five_live.mpir";
  const std::pair<std::string, std::string> cases[] = {
      {mlp, "buffer 'h1' (32768 bytes) is larger than every memory space of target "
            "'tiny-3level' that its ops can access (the largest holds 4096 bytes)"},
      {five, "buffer 'c' (3072 bytes) fits in no memory space of target 'tiny-3level' that its "
             "ops can access: each is full at some step of its live range"}};
  for (const auto& [input, why] : cases) {
    const CliRun r = Memplan("plan " + input + " --target " + target + " --json " + dir + "/p.json");
    EXPECT_EQ(r.exit_code, 1) << input;
    EXPECT_EQ(r.err, input + ": error: plan does not fit: " + why + "\n");
    EXPECT_FALSE(fs::exists(dir + "/p.json")) << input;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace memplan
