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

}  // namespace
}  // namespace memplan
