// MiniMalloc CSV compatibility end to end: the `offset` and `gaps` columns,
// `plan --csv` (MiniMalloc's output form) and `verify X.csv SOLUTION.csv`.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ir/units.h"
#include "tests/cli/cli_runner.h"

namespace memplan {
namespace {

using testing_cli::FreshDir;
using testing_cli::MemplanIn;
using testing_cli::Slurp;
using testing_cli::WriteText;

// f is fixed at 10 during [0,10); a and b (10 B) live in turn, c (5 B) all along.
constexpr const char* kFixedInTheMiddle =
    "id,lower,upper,size,offset\nf,0,10,10,10\na,0,5,10,\nb,5,10,10,\nc,0,10,5,\n";

std::string SolutionRows(const std::vector<Bytes>& offsets) {
  const char* rows[] = {"f,0,10,10,", "a,0,5,10,", "b,5,10,10,", "c,0,10,5,"};
  std::string text = "id,lower,upper,size,offset\n";
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    text += rows[i] + std::to_string(offsets[i]) + "\n";
  }
  return text;
}

TEST(CsvCompatCliTest, EveryAlgorithmHonoursTheFixedOffset) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", kFixedInTheMiddle);
  const std::vector<std::pair<std::string, std::vector<Bytes>>> expected = {
      {"auto", {10, 0, 0, 20}},
      {"best-fit-spatial", {10, 0, 0, 20}},
      {"best-fit-temporal", {10, 20, 20, 0}},
      {"best-fit-busiest", {10, 0, 0, 20}},
      {"best-fit-start-time", {10, 0, 0, 20}},
      {"in-order", {10, 0, 0, 20}},
      {"skyline-longest", {10, 20, 20, 0}},
      {"skyline-area", {10, 20, 20, 0}},
      {"skyline-local-search", {10, 0, 0, 20}},
      {"online-best-fit", {10, 0, 0, 20}},
      {"naive", {10, 0, 20, 30}},
  };
  for (const auto& [algorithm, offsets] : expected) {
    const auto r = MemplanIn(dir, "plan in.csv -q --csv out.csv --algorithm " + algorithm);
    ASSERT_EQ(r.exit_code, 0) << algorithm << ": " << r.err;
    EXPECT_EQ(Slurp(dir + "/out.csv"), SolutionRows(offsets)) << algorithm;
  }
  std::filesystem::remove_all(dir);
}

// A lone empty buffer fixed at 3: every algorithm keeps it there and the
// pool reaches it (it was refused by the verifier as outside a 0-byte pool,
// and exact put it at 0: a user's report).
TEST(CsvCompatCliTest, EmptyFixedBufferKeepsItsOffset) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", "id,lower,upper,size,offset\nz,1,3,0,3\n");
  for (const std::string algorithm : {"auto", "exact", "naive", "skyline-area", "online-best-fit"}) {
    const auto r = MemplanIn(dir, "plan in.csv -q --csv out.csv --algorithm " + algorithm);
    ASSERT_EQ(r.exit_code, 0) << algorithm << ": " << r.err;
    EXPECT_EQ(Slurp(dir + "/out.csv"), "id,lower,upper,size,offset\nz,1,3,0,3\n") << algorithm;
    EXPECT_EQ(MemplanIn(dir, "verify in.csv out.csv").exit_code, 0) << algorithm;
  }
  std::filesystem::remove_all(dir);
}

TEST(CsvCompatCliTest, CompareVerifiesEveryPeerAroundTheFixedOffset) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", kFixedInTheMiddle);
  const auto r = MemplanIn(dir, "compare in.csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("| no "), std::string::npos);
  EXPECT_NE(r.out.find("no-reuse                          35"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CsvCompatCliTest, CollidingFixedBuffersAreRefused) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", "id,lower,upper,size,offset\nx,0,4,8,0\nfree,0,9,4,\ny,2,6,8,4\n");
  const auto r = MemplanIn(dir, "plan in.csv");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "in.csv: error: fixed offsets collide: buffers 'x' (offset 0, 8 bytes) and 'y' "
            "(offset 4, 8 bytes) both hold bytes [4, 8) at steps 2 to 3\n");
  EXPECT_EQ(r.out, "");
  // compare refuses them the same way (no strategy can place them).
  const auto c = MemplanIn(dir, "compare in.csv");
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_EQ(c.err, r.err);
  // The same offsets at disjoint times, or with y in a gap of x, are fine.
  WriteText(dir + "/apart.csv", "id,lower,upper,size,offset\nx,0,4,8,0\ny,4,6,8,4\n");
  EXPECT_EQ(MemplanIn(dir, "plan apart.csv -q").exit_code, 0);
  WriteText(dir + "/gap.csv", "id,lower,upper,size,offset,gaps\nx,0,9,8,0,2-6\ny,2,6,8,4,\n");
  EXPECT_EQ(MemplanIn(dir, "plan gap.csv -q").exit_code, 0);
  std::filesystem::remove_all(dir);
}

TEST(CsvCompatCliTest, MalformedValuesAreLocated) {
  const std::string dir = FreshDir();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"id,lower,upper,size,offset\nb,0,3,4,4k\n",
       "in.csv:2:9: error: expected a non-negative integer for 'offset', found '4k'"},
      {"id,lower,upper,size,alignment,offset\nb,0,3,4,8,4\n",
       "in.csv:2:11: error: offset 4 is not a multiple of the alignment 8"},
      {"id,lower,upper,size,gaps\nb,0,9,4,2-4 5:6\n",
       "in.csv:2:13: error: gap '5:6' is not of the form LOWER-UPPER or LOWER-UPPER@LO:HI "
       "(e.g. 2-5 or 2-5@0:64)"},
      {"id,lower,upper,size,gaps\nb,0,9,4,2-12\n",
       "in.csv:2:9: error: gap '2-12' is outside the buffer's range [0, 9)"},
  };
  for (const auto& [text, message] : cases) {
    WriteText(dir + "/in.csv", text);
    const auto r = MemplanIn(dir, "plan in.csv");
    EXPECT_EQ(r.exit_code, 2) << text;
    EXPECT_EQ(r.err, message + "\n") << text;
  }
  WriteText(dir + "/in.csv", "id,lower,upper,size,offset\nb,0,3,4,6\n");
  const auto r = MemplanIn(dir, "plan in.csv --alignment 4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "in.csv:2:9: error: buffer 'b' has the fixed offset 6, not a multiple of "
                   "--alignment 4\n");
  std::filesystem::remove_all(dir);
}

TEST(CsvCompatCliTest, GapsShareBytesAndComeBackInTheSolution) {
  // big holds nothing during [3,6), when mid needs the same 16 bytes; w
  // keeps only its low 8 bytes during [6,8) (read as fully live).
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv",
            "gaps,id,lower,upper,size\n3-6,big,0,10,16\n,mid,3,6,16\n6-8@0:8,w,0,10,16\n");
  const auto r = MemplanIn(dir, "plan in.csv --csv out.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("transient extent 32 bytes, lower bound 32 bytes"), std::string::npos)
      << r.out;
  // Best fit by size: big -> 0, w (as long, later) -> 16, mid -> 0 inside big's gap.
  EXPECT_EQ(Slurp(dir + "/out.csv"),
            "gaps,id,lower,upper,size,offset\n3-6,big,0,10,16,0\n,mid,3,6,16,0\n"
            "6-8@0:8,w,0,10,16,16\n");
  const auto v = MemplanIn(dir, "verify in.csv out.csv");
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out, "out.csv: solution verified: 3 buffers, extent 32 bytes, lower bound 32 bytes\n");
  // A solution's gaps column that states other gaps is located at the field.
  WriteText(dir + "/regapped.csv",
            "gaps,id,lower,upper,size,offset\n3-5,big,0,10,16,0\n,mid,3,6,16,0\n"
            "6-8@0:8,w,0,10,16,16\n");
  const auto g = MemplanIn(dir, "verify in.csv regapped.csv");
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_EQ(g.err, "regapped.csv:2:1: error: buffer 'big' has gaps '3-5' here but gaps '3-6' in "
                   "the problem 'in.csv'\n");
  std::filesystem::remove_all(dir);
}

TEST(CsvCompatCliTest, RoundTripAndBrokenSolutions) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", kFixedInTheMiddle);
  ASSERT_EQ(MemplanIn(dir, "plan in.csv -q --csv out.csv").exit_code, 0);
  const auto ok = MemplanIn(dir, "verify in.csv out.csv");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "out.csv: solution verified: 4 buffers, extent 25 bytes, lower bound 25 bytes\n");
  EXPECT_EQ(MemplanIn(dir, "verify in.csv out.csv -q").out, "");

  // b moved onto f: overlap (exit 1).
  WriteText(dir + "/overlap.csv", SolutionRows({10, 0, 5, 20}));
  auto r = MemplanIn(dir, "verify in.csv overlap.csv");
  EXPECT_EQ(r.exit_code, 1);
  // Located at the offset of b's row (line 4), the buffer named first.
  EXPECT_EQ(r.err,
            "overlap.csv:4:11: error: verification failed: buffer 'b' (id 2) allocation 0 (space "
            "0, bytes [5, 15), time [5, 9]) overlaps buffer 'f' (id 0) allocation 0 (space 0, "
            "bytes [10, 20), time [0, 9]) at time 5\n");
  // f moved: its fixed offset is not kept (exit 1).
  WriteText(dir + "/moved.csv", SolutionRows({0, 10, 10, 20}));
  r = MemplanIn(dir, "verify in.csv moved.csv");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "moved.csv:2:11: error: verification failed: buffer 'f' (id 0) allocation 0 (space 0, "
            "bytes [0, 10), time [0, 9]): offset 0 is not the buffer's fixed offset 10\n");
  // A solution of another problem (exit 2).
  WriteText(dir + "/short.csv", "id,lower,upper,size,offset\nf,0,10,10,10\n");
  r = MemplanIn(dir, "verify in.csv short.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "short.csv: error: buffer 'a' of the problem 'in.csv' has no row here\n");
  // b resized: located at its size field (line 4, column 8).
  WriteText(dir + "/resized.csv",
            "id,lower,upper,size,offset\nf,0,10,10,10\na,0,5,10,0\nb,5,10,12,0\nc,0,10,5,20\n");
  r = MemplanIn(dir, "verify in.csv resized.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "resized.csv:4:8: error: buffer 'b' is lower 5, upper 10, size 12 here but "
                   "lower 5, upper 10, size 10 in the problem 'in.csv'\n");
  WriteText(dir + "/nooffset.csv", "id,lower,upper,size\nf,0,10,10\n");
  r = MemplanIn(dir, "verify in.csv nooffset.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "nooffset.csv:1:1: error: a solution needs an 'offset' column (MiniMalloc's "
                   "output form: the input's columns plus 'offset')\n");
  std::filesystem::remove_all(dir);
}

// A misaligned offset in a solution is a broken rule (exit 1, at its
// offset) whether or not the solution repeats the alignment column; an
// alignment column that differs from the problem's is located (exit 2).
TEST(CsvCompatCliTest, AMisalignedOffsetIsABrokenRuleWithOrWithoutAnAlignmentColumn) {
  const std::string dir = FreshDir();
  WriteText(dir + "/p.csv", "id,lower,upper,size,alignment\na,0,2,4,4\nb,0,2,4,4\n");
  const std::string broken =
      "error: verification failed: buffer 'b' (id 1) allocation 0 (space 0, bytes [6, 10), time "
      "[0, 1]): offset 6 is not a multiple of the buffer's alignment 4\n";
  WriteText(dir + "/s1.csv", "id,lower,upper,size,offset\na,0,2,4,0\nb,0,2,4,6\n");
  auto r = MemplanIn(dir, "verify p.csv s1.csv");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "s1.csv:3:9: " + broken);
  WriteText(dir + "/s2.csv", "id,lower,upper,size,alignment,offset\na,0,2,4,4,0\nb,0,2,4,4,6\n");
  r = MemplanIn(dir, "verify p.csv s2.csv");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "s2.csv:3:11: " + broken);
  WriteText(dir + "/s3.csv", "id,lower,upper,size,alignment,offset\na,0,2,4,4,0\nb,0,2,4,2,6\n");
  r = MemplanIn(dir, "verify p.csv s3.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "s3.csv:3:9: error: buffer 'b' has alignment 2 here but 4 in the problem "
                   "'p.csv'\n");
  // As a problem, a misaligned fixed offset is bad input (exit 2).
  r = MemplanIn(dir, "plan s2.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "s2.csv:3:11: error: offset 6 is not a multiple of the alignment 4\n");
  std::filesystem::remove_all(dir);
}

// --alignment 3 with a column's alignment 4: no offset is a multiple of the
// larger alone that is also one of the other, so it is refused where the
// column says 4 (was an internal verification failure); 2 and 8 divide or
// are multiples of 4 and plan.
TEST(CsvCompatCliTest, AnAlignmentThatIsNotAMultipleOfTheOtherIsRefused) {
  const std::string dir = FreshDir();
  WriteText(dir + "/al.csv", "id,lower,upper,size,alignment\na,0,2,3,4\nb,0,2,3,4\nc,2,3,5,1\n");
  auto r = MemplanIn(dir, "plan al.csv --alignment 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "al.csv:2:9: error: buffer 'a' needs alignment 4, and --alignment 3 is neither "
                   "a multiple nor a divisor of it (memplan aligns a buffer to the larger of the "
                   "two)\n");
  for (const char* ok : {"2", "8"}) {
    r = MemplanIn(dir, std::string("plan al.csv -q --alignment ") + ok);
    EXPECT_EQ(r.exit_code, 0) << ok << r.err;
  }
  std::filesystem::remove_all(dir);
}

// verify --capacity N holds a CSV solution to N bytes, as plan --capacity
// holds a plan; a JSON plan records its own capacity, so there it is a
// usage error.
TEST(CsvCompatCliTest, VerifyHoldsASolutionToItsCapacity) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", kFixedInTheMiddle);
  ASSERT_EQ(MemplanIn(dir, "plan in.csv -q --csv out.csv --json plan.json").exit_code, 0);
  // a and b below f, c on top: extent 25.
  ASSERT_EQ(Slurp(dir + "/out.csv"),
            "id,lower,upper,size,offset\nf,0,10,10,10\na,0,5,10,0\nb,5,10,10,0\nc,0,10,5,20\n");
  auto r = MemplanIn(dir, "verify in.csv out.csv --capacity 25");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "out.csv: solution verified: 4 buffers, extent 25 bytes, lower bound 25 bytes, "
                   "within --capacity 25\n");
  r = MemplanIn(dir, "verify in.csv out.csv --capacity 1KiB -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  r = MemplanIn(dir, "verify in.csv out.csv --capacity 24");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "out.csv:5:10: error: verification failed: buffer 'c' (id 3) allocation 0 "
                   "(space 0, bytes [20, 25), time [0, 9]) ends at byte 25, beyond the capacity "
                   "24 of space 0\n");
  r = MemplanIn(dir, "verify in.csv out.csv --capacity 1.5B");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("memplan: error: --capacity: invalid byte size '1.5B'", 0), 0u) << r.err;
  r = MemplanIn(dir, "verify in.csv plan.json --capacity 24");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "memplan: error: verify --capacity applies to a CSV solution (memplan verify "
                   "X.csv SOLUTION.csv --capacity N); a JSON plan is checked against the "
                   "capacity it records (plan --capacity)\n");
  std::filesystem::remove_all(dir);
}

// A CSV solution under another name is read as a plan JSON: the parse
// error says what verify reads (a trial's sol.txt got nlohmann's message
// alone).
TEST(CsvCompatCliTest, ASolutionThatIsNotJsonNorNamedCsvSaysWhatVerifyReads) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", kFixedInTheMiddle);
  ASSERT_EQ(MemplanIn(dir, "plan in.csv -q --csv out.csv").exit_code, 0);
  std::filesystem::copy_file(dir + "/out.csv", dir + "/out.txt");
  const auto r = MemplanIn(dir, "verify in.csv out.txt");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "out.txt:1:1: error: syntax error while parsing value - invalid literal; last read: "
            "'i' (verify reads a plan JSON written by memplan plan --json, or a MiniMalloc CSV "
            "solution named *.csv)\n");
  std::filesystem::remove_all(dir);
}

TEST(CsvCompatCliTest, CsvOutputNeedsACsvInput) {
  const std::string dir = FreshDir();
  const auto r = MemplanIn(dir, "plan " + testing_cli::kMlp + " --csv out.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "out.csv: error: --csv writes MiniMalloc's output form, which needs a "
                   "lifetime CSV input (this is memplan text IR)\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.csv"));
  std::filesystem::remove_all(dir);
}

TEST(CsvCompatCliTest, MiniMallocsOwnExample) {
  const std::string input = MEMPLAN_SHARED_DIR "/data/minimalloc/input.12.csv";
  if (!std::filesystem::exists(input)) GTEST_SKIP() << "no shared data";
  const std::string dir = FreshDir();
  const auto r = MemplanIn(dir, "plan '" + input + "' -q --csv out.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The same packing as MiniMalloc's README shows for --capacity=12.
  EXPECT_EQ(Slurp(dir + "/out.csv"),
            "id,lower,upper,size,offset\nb1,0,3,4,8\nb2,3,9,4,8\nb3,0,9,4,4\nb4,9,21,4,4\n"
            "b5,0,21,4,0\n");
  const auto v = MemplanIn(dir, "verify '" + input + "' out.csv");
  EXPECT_EQ(v.exit_code, 0) << v.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

TEST(CsvCompatCliTest, ASolutionUsingAWindowVerifies) {
  // w keeps only bytes [0, 8) during [3, 6): MiniMalloc may put v above
  // them. memplan's packers read w as fully live, its verifier does not.
  const std::string dir = testing_cli::FreshDir();
  testing_cli::WriteText(dir + "/in.csv",
                         "id,lower,upper,size,gaps\nw,0,10,16,3-6@0:8\nv,3,6,8,\n");
  testing_cli::WriteText(dir + "/sol.csv",
                         "id,lower,upper,size,gaps,offset\nw,0,10,16,3-6@0:8,0\nv,3,6,8,,8\n");
  const auto r = testing_cli::MemplanIn(dir, "verify in.csv sol.csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "sol.csv: solution verified: 2 buffers, extent 16 bytes, lower bound 16 bytes\n");
  testing_cli::WriteText(dir + "/low.csv",
                         "id,lower,upper,size,gaps,offset\nw,0,10,16,3-6@0:8,0\nv,3,6,8,,4\n");
  EXPECT_EQ(testing_cli::MemplanIn(dir, "verify in.csv low.csv").exit_code, 1);
  const auto planned = testing_cli::MemplanIn(dir, "plan in.csv -q --csv out.csv");
  EXPECT_EQ(planned.exit_code, 0) << planned.err;
  EXPECT_EQ(testing_cli::Slurp(dir + "/out.csv"),
            "id,lower,upper,size,gaps,offset\nw,0,10,16,3-6@0:8,0\nv,3,6,8,,16\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memplan
