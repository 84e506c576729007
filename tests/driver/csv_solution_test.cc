// A CSV solution's rows are checked against the problem's rows field by
// field (driver/csv_solution.h): an error points at the field it is about.
#include "driver/csv_solution.h"

#include <string>

#include "gtest/gtest.h"
#include "io/csv/reader.h"

namespace memplan {
namespace {

BufferSet Read(std::string_view text, std::string_view path) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, path);
  EXPECT_TRUE(set.ok()) << set.status();
  return set.ok() ? *set : BufferSet{};
}

// The message PlanOfCsvSolution gives for `solution` against a problem of
// two buffers, a [0, 4) and b [2, 6), 8 bytes each.
std::string ErrorOf(std::string_view solution) {
  const BufferSet problem = Read("id,lower,upper,size\na,0,4,8\nb,2,6,8\n", "p.csv");
  absl::StatusOr<Plan> plan = PlanOfCsvSolution(problem, Read(solution, "s.csv"), "s.csv");
  if (plan.ok()) return "OK";
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(plan.status().message());
}

TEST(CsvSolutionLocationTest, ASizeThatDiffersPointsAtTheSize) {
  EXPECT_EQ(ErrorOf("id,lower,upper,size,offset\na,0,4,8,0\nb,2,6,16,8\n"),
            "s.csv:3:7: error: buffer 'b' is lower 2, upper 6, size 16 here but lower 2, upper 6, "
            "size 8 in the problem 'p.csv'");
  // Columns in another order, with spaces: still the size field's column.
  EXPECT_EQ(ErrorOf("offset, size ,id,lower,upper\n0, 8 ,a,0,4\n8,  9,b,2,6\n"),
            "s.csv:3:5: error: buffer 'b' is lower 2, upper 6, size 9 here but lower 2, upper 6, "
            "size 8 in the problem 'p.csv'");
}

TEST(CsvSolutionLocationTest, TheFirstFieldThatDiffersIsNamed) {
  // lower and size both differ: the lower.
  EXPECT_EQ(ErrorOf("id,lower,upper,size,offset\na,1,4,9,0\nb,2,6,8,8\n"),
            "s.csv:2:3: error: buffer 'a' is lower 1, upper 4, size 9 here but lower 0, upper 4, "
            "size 8 in the problem 'p.csv'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size,offset\na,0,5,8,0\nb,2,6,8,8\n"),
            "s.csv:2:5: error: buffer 'a' is lower 0, upper 5, size 8 here but lower 0, upper 4, "
            "size 8 in the problem 'p.csv'");
}

TEST(CsvSolutionLocationTest, UnknownIdsAndMissingOffsetsPointAtTheirFields) {
  EXPECT_EQ(ErrorOf("id,lower,upper,size,offset\na,0,4,8,0\nb,2,6,8,8\nzz,0,1,1,0\n"),
            "s.csv:4:1: error: buffer 'zz' is not in the problem 'p.csv'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size,offset\na,0,4,8,0\nb,2,6,8,\n"),
            "s.csv:3:9: error: buffer 'b' has no offset");
  EXPECT_EQ(ErrorOf("id,lower,upper,size,offset\na,0,4,8,0\nb,2,6,8,8\n"), "OK");
}

// A solution's own gaps column must state the problem's gaps (as read:
// adjacent dead gaps merge); a differing one is located at its field.
TEST(CsvSolutionLocationTest, GapsThatDifferPointAtTheGapsField) {
  const BufferSet problem =
      Read("id,lower,upper,size,gaps\nw,0,10,16,3-6@0:8\nd,0,10,8,2-5\nv,3,6,8,\n", "p.csv");
  const auto error_of = [&](std::string_view solution) {
    absl::StatusOr<Plan> plan = PlanOfCsvSolution(problem, Read(solution, "s.csv"), "s.csv");
    return plan.ok() ? std::string("OK") : std::string(plan.status().message());
  };
  EXPECT_EQ(error_of("id,lower,upper,size,gaps,offset\nw,0,10,16,3-6@0:8,0\nd,0,10,8,2-4 4-5,16\n"
                     "v,3,6,8,,8\n"),
            "OK");
  // No gaps column: the problem's gaps hold.
  EXPECT_EQ(error_of("id,lower,upper,size,offset\nw,0,10,16,0\nd,0,10,8,16\nv,3,6,8,8\n"), "OK");
  EXPECT_EQ(error_of("id,lower,upper,size,gaps,offset\nw,0,10,16,3-6@0:12,0\nd,0,10,8,2-5,16\n"
                     "v,3,6,8,,8\n"),
            "s.csv:2:11: error: buffer 'w' has gaps '3-6@0:12' here but gaps '3-6@0:8' in the "
            "problem 'p.csv'");
  EXPECT_EQ(error_of("offset,gaps,id,lower,upper,size\n0,3-6@0:8,w,0,10,16\n16,,d,0,10,8\n"
                     "8,,v,3,6,8\n"),
            "s.csv:3:4: error: buffer 'd' has no gaps here but gaps '2-5' in the problem 'p.csv'");
  EXPECT_EQ(error_of("id,lower,upper,size,gaps,offset\nw,0,10,16,3-6@0:8,0\nd,0,10,8,2-5,16\n"
                     "v,3,6,8,4-5,8\n"),
            "s.csv:4:9: error: buffer 'v' has gaps '4-5' here but no gaps in the problem 'p.csv'");
}

}  // namespace
}  // namespace memplan
