// Occupancy windows (`L-U@LO:HI` in a lifetime CSV's `gaps`) end to end: a
// new user's inputs that memplan got wrong. Fixed buffers collide only by
// the bytes they hold (a fixed buffer in a window holds only its window's
// bytes), every packer places around those bytes and its plan verifies, and
// the reported lower bound counts a window's bytes only.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/cli/cli_runner.h"

namespace memplan {
namespace {

using testing_cli::FreshDir;
using testing_cli::MemplanIn;
using testing_cli::Slurp;
using testing_cli::WriteText;

// a holds only bytes [0, 4) during steps 3..6, where b takes [4, 8).
constexpr const char* kFixedInAWindow =
    "id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7@0:4\nb,3,7,4,4,\n";

const std::vector<std::string> kAlgorithms = {
    "auto",           "exact",           "naive",           "in-order",
    "best-fit-spatial", "best-fit-temporal", "best-fit-busiest", "best-fit-start-time",
    "skyline-longest", "skyline-area",    "skyline-local-search", "online-best-fit"};

TEST(CsvWindowsCliTest, FixedBuffersSharingAWindowsFreedBytesPlanWithEveryAlgorithm) {
  const std::string dir = FreshDir();
  WriteText(dir + "/in.csv", kFixedInAWindow);
  for (const std::string& algorithm : kAlgorithms) {
    const auto r = MemplanIn(dir, "plan in.csv -q --csv out.csv --algorithm " + algorithm);
    ASSERT_EQ(r.exit_code, 0) << algorithm << ": " << r.err;
    EXPECT_EQ(Slurp(dir + "/out.csv"), kFixedInAWindow) << algorithm;
    const auto v = MemplanIn(dir, "verify in.csv out.csv");
    EXPECT_EQ(v.exit_code, 0) << algorithm << ": " << v.err;
    EXPECT_EQ(v.out, "out.csv: solution verified: 2 buffers, extent 8 bytes, lower bound 8 bytes\n")
        << algorithm;
  }
  // The bound counts a's 4 window bytes at steps 3..6: 8, not 12.
  const auto r = MemplanIn(dir, "plan in.csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("transient extent 8 bytes, lower bound 8 bytes (0.00% over)\n"
                       "activation peak: 8 bytes live at step 0 in 1 buffer:\n"
                       "  100.00%  a: 8 bytes\n"
                       "default memory: 8 bytes used, max live 8 bytes at step 0 "
                       "(0.00% over)\n"),
            std::string::npos)
      << r.out;
  std::filesystem::remove_all(dir);
}

TEST(CsvWindowsCliTest, CompareBoundsByTheBytesHeldAndVerifiesEveryStrategy) {
  const std::string dir = FreshDir();
  // compare failed here: its bound read a's window as whole (12 bytes, above
  // the 8 every strategy needs), which the verifier refused.
  WriteText(dir + "/in.csv", kFixedInAWindow);
  const auto r = MemplanIn(dir, "compare in.csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nlower bound                        8   8 B  1.000  -  "), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("  no  "), std::string::npos) << r.out;  // every row verified
  WriteText(dir + "/bound.csv", "id,lower,upper,size,gaps\na,0,4,16,1-3@0:8\nb,1,3,8,\n");
  const auto b = MemplanIn(dir, "compare bound.csv");
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.out.find("\nlower bound                       16  16 B  1.000  -  "), std::string::npos)
      << b.out;
  std::filesystem::remove_all(dir);
}

TEST(CsvWindowsCliTest, FixedBuffersCollideOnlyInTheBytesTheyHold) {
  const std::string dir = FreshDir();
  // b at 2 meets a's window bytes [0, 4) at [2, 4): the message names those
  // bytes and the steps of the window, not the whole extents.
  WriteText(dir + "/in.csv", "id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7@0:4\nb,3,7,4,2,\n");
  const auto r = MemplanIn(dir, "plan in.csv");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "in.csv: error: fixed offsets collide: buffers 'a' (offset 0, 8 bytes) and 'b' "
            "(offset 2, 4 bytes) both hold bytes [2, 4) at steps 3 to 6\n");
  EXPECT_EQ(r.out, "");
  // b one step longer meets a's whole extent after the window: step 7.
  WriteText(dir + "/after.csv",
            "id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7@0:4\nb,3,8,4,4,\n");
  EXPECT_EQ(MemplanIn(dir, "plan after.csv").err,
            "after.csv: error: fixed offsets collide: buffers 'a' (offset 0, 8 bytes) and 'b' "
            "(offset 4, 4 bytes) both hold bytes [4, 8) at steps 7 to 7\n");
  // A fixed buffer in another's dead gap does not collide, and the exact
  // search no longer reads the two as colliding (it reported a proven lower
  // bound of 2^61 - 1 bytes for this input).
  WriteText(dir + "/dead.csv",
            "id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7\nb,3,7,8,0,\nc,0,5,4,,\n");
  const auto exact = MemplanIn(dir, "plan dead.csv --algorithm exact");
  EXPECT_EQ(exact.exit_code, 0) << exact.err;
  EXPECT_NE(exact.out.find("exact search: optimal, proven lower bound 12 bytes (gap "
                           "0.00%), "),
            std::string::npos)
      << exact.out;
  std::filesystem::remove_all(dir);
}

TEST(CsvWindowsCliTest, MovableBuffersUseAFixedBuffersWindowBytes) {
  const std::string dir = FreshDir();
  // m fits in a's freed bytes [4, 8) during its window; c goes on top.
  WriteText(dir + "/in.csv",
            "id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7@0:4\nm,3,7,4,,\nc,0,10,4,,\n");
  for (const std::string& algorithm : kAlgorithms) {
    const auto r = MemplanIn(dir, "plan in.csv -q --csv out.csv --algorithm " + algorithm);
    ASSERT_EQ(r.exit_code, 0) << algorithm << ": " << r.err;
    // online-best-fit reserves a fixed buffer's bytes for the whole run.
    const std::string m_offset = algorithm == "online-best-fit" ? "12" : "4";
    EXPECT_EQ(Slurp(dir + "/out.csv"), "id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7@0:4\nm,3,7,4," +
                                           m_offset + ",\nc,0,10,4,8,\n")
        << algorithm;
    EXPECT_EQ(MemplanIn(dir, "verify in.csv out.csv").exit_code, 0) << algorithm;
  }
  std::filesystem::remove_all(dir);
}

TEST(CsvWindowsCliTest, TheLowerBoundCountsOnlyAWindowsBytes) {
  const std::string dir = FreshDir();
  // a keeps bytes [0, 8) during steps 1..2, b (8 B) may take [8, 16): 16
  // bytes suffice (hand-made solution below), though the packers read a as
  // whole and need 24. Plain max-live would say 24.
  WriteText(dir + "/in.csv", "id,lower,upper,size,gaps\na,0,4,16,1-3@0:8\nb,1,3,8,\n");
  const auto r = MemplanIn(dir, "plan in.csv --json plan.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("transient  default          2             24             24             "
                       "16   50.00%\n"
                       "transient extent 24 bytes, lower bound 16 bytes (50.00% "
                       "over)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("the lowest peak is chosen, 8 bytes over the lower bound\n"),
            std::string::npos)
      << r.out;
  const std::string json = Slurp(dir + "/plan.json");
  EXPECT_NE(json.find("\"lower_bound_bytes\": 16,\n  \"peak_bytes\": 24,\n  \"gap_bytes\": 8,"),
            std::string::npos)
      << json;
  // The exact search's proof is for the packers' reading (a whole): said so.
  const auto exact = MemplanIn(dir, "plan in.csv --algorithm exact");
  EXPECT_EQ(exact.exit_code, 0) << exact.err;
  EXPECT_NE(exact.out.find("transient extent 24 bytes, lower bound 16 bytes (50.00% "
                           "over)\nexact search: optimal, proven lower bound 24 bytes (gap "
                           "0.00%), 0 nodes\nexact search: it reads movable buffers as live over "
                           "their dead gaps and windows (conservative), so its proof holds for "
                           "that reading only\n"),
            std::string::npos)
      << exact.out;
  WriteText(dir + "/sol.csv", "id,lower,upper,size,gaps,offset\na,0,4,16,1-3@0:8,0\nb,1,3,8,,8\n");
  const auto v = MemplanIn(dir, "verify in.csv sol.csv");
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out, "sol.csv: solution verified: 2 buffers, extent 16 bytes, lower bound 16 bytes\n");
  const auto s = MemplanIn(dir, "stats in.csv");
  EXPECT_NE(s.out.find("lower bound (max live activations): 16 bytes at step 0\n"),
            std::string::npos)
      << s.out;
  // An overlap inside the window names the bytes both hold then, at b's
  // offset (line 3).
  WriteText(dir + "/low.csv", "id,lower,upper,size,gaps,offset\na,0,4,16,1-3@0:8,0\nb,1,3,8,,4\n");
  const auto low = MemplanIn(dir, "verify in.csv low.csv");
  EXPECT_EQ(low.exit_code, 1);
  EXPECT_EQ(low.err,
            "low.csv:3:10: error: verification failed: buffer 'b' (id 1) allocation 0 (space 0, "
            "bytes [4, 12), time [1, 2]) overlaps buffer 'a' (id 0) allocation 0 (space 0, bytes "
            "[0, 16), time [0, 3]) at time 1, where both hold bytes [4, 8)\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memplan
