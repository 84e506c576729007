// MiniMalloc's optional `offset` and `gaps` columns (io/csv/reader.h).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/csv/reader.h"

namespace memplan {
namespace {

BufferSet ReadColumns(std::string_view text) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "t.csv");
  EXPECT_TRUE(set.ok()) << set.status();
  return set.ok() ? *set : BufferSet{};
}

std::string ColumnsError(std::string_view text) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "t.csv");
  EXPECT_FALSE(set.ok());
  if (set.ok()) return "";
  EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(set.status().message());
}

TEST(CsvOptionalColumnsTest, OffsetIsFixedAndEmptyIsFree) {
  BufferSet set = ReadColumns("offset,id,lower,upper,size,alignment\n8,a,0,3,4,4\n,b,1,2,4,1\n");
  ASSERT_EQ(set.buffers.size(), 2u);
  EXPECT_EQ(set.buffers[0].fixed_offset(), std::optional<Bytes>(8));
  EXPECT_EQ(set.buffers[1].fixed_offset(), std::nullopt);
  EXPECT_EQ(set.csv_columns,
            (std::vector<std::string>{"offset", "id", "lower", "upper", "size", "alignment"}));
}

TEST(CsvOptionalColumnsTest, GapsAndWindows) {
  // Dead gaps [2,3] and [4,4] are adjacent: one gap [2,4]; 6-8@0:32 keeps
  // the low half during [6,7]; a window 0:0 keeps nothing: a dead gap.
  BufferSet set =
      ReadColumns("id,lower,upper,size,gaps\nb,0,20,64, 6-8@0:32  2-4 4-5 10-12@5:5 \nc,0,3,8,\n");
  ASSERT_EQ(set.buffers.size(), 2u);
  const Buffer& b = set.buffers[0];
  EXPECT_EQ(b.gaps(), (std::vector<StepRange>{{2, 4}, {10, 11}}));
  EXPECT_EQ(b.windows(), (std::vector<OccupancyWindow>{{{6, 7}, 0, 32}}));
  EXPECT_TRUE(set.buffers[1].gaps().empty());
  EXPECT_TRUE(set.buffers[1].windows().empty());
}

TEST(CsvOptionalColumnsTest, AWindowMayTouchTheRangeEnds) {
  BufferSet set = ReadColumns("id,lower,upper,size,gaps\nb,0,10,64,0-2@32:64 8-10@0:1\n");
  ASSERT_EQ(set.buffers.size(), 1u);
  EXPECT_EQ(set.buffers[0].windows(),
            (std::vector<OccupancyWindow>{{{0, 1}, 32, 64}, {{8, 9}, 0, 1}}));
}

TEST(CsvOptionalColumnsTest, MalformedOffsetsAreLocated) {
  EXPECT_EQ(ColumnsError("id,lower,upper,size,offset\nb,0,3,4,x\n"),
            "t.csv:2:9: error: expected a non-negative integer for 'offset', found 'x'");
  EXPECT_EQ(ColumnsError("id,lower,upper,size,offset\nb,0,3,4,-4\n"),
            "t.csv:2:9: error: 'offset' must not be negative, found '-4'");
  EXPECT_EQ(ColumnsError("id,lower,upper,size,alignment,offset\nb,0,3,4,8,12\n"),
            "t.csv:2:11: error: offset 12 is not a multiple of the alignment 8");
  EXPECT_EQ(ColumnsError("id,lower,upper,size,offset\nb,0,3,4,4611686018427387901\n"),
            "t.csv:2:9: error: offset 4611686018427387901 plus size 4 is above the limit of 2^62 "
            "(4611686018427387904) bytes");
}

TEST(CsvOptionalColumnsTest, MalformedGapsAreLocated) {
  const std::string header = "id,lower,upper,size,gaps\n";
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,2-4 x\n"),
            "t.csv:2:13: error: gap 'x' is not of the form LOWER-UPPER or LOWER-UPPER@LO:HI "
            "(e.g. 2-5 or 2-5@0:64)");
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,2-y\n"),
            "t.csv:2:11: error: expected a non-negative integer for 'gap upper', found 'y'");
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,2-5@1\n"),
            "t.csv:2:13: error: gap '2-5@1' is not of the form LOWER-UPPER or LOWER-UPPER@LO:HI "
            "(e.g. 2-5 or 2-5@0:64)");
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,4-4\n"),
            "t.csv:2:9: error: gap '4-4' is empty: its upper must be greater than its lower");
  EXPECT_EQ(ColumnsError(header + "b,2,9,4,1-3\n"),
            "t.csv:2:9: error: gap '1-3' is outside the buffer's range [2, 9)");
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,3-5@2:5\n"),
            "t.csv:2:13: error: window 2:5 must satisfy lo <= hi <= size (4)");
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,0-2\n"),
            "t.csv:2:9: error: gap '0-2' reaches the first step of the buffer's range [0, 9): "
            "shorten the range instead");
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,6-9\n"),
            "t.csv:2:9: error: gap '6-9' reaches the last step of the buffer's range [0, 9): "
            "shorten the range instead");
  EXPECT_EQ(ColumnsError(header + "b,0,9,4,4-6 2-5\n"),
            "t.csv:2:9: error: gap '4-6' overlaps gap '2-5'");
}

}  // namespace
}  // namespace memplan
