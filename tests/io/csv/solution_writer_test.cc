#include "io/csv/solution_writer.h"

#include <string>

#include "gtest/gtest.h"
#include "io/csv/reader.h"

namespace memplan {
namespace {

TEST(CsvSolutionWriterTest, KeepsTheInputColumnsAndFillsTheOffsets) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(
      "size,id,offset,gaps,lower,upper,alignment\n8,a,,5-7@0:4 2-3 3-4,0,9,4\n4,b,16,,1,2,1\n",
      "t.csv");
  ASSERT_TRUE(set.ok()) << set.status();
  // Adjacent dead gaps come out merged; windows keep their bytes.
  EXPECT_EQ(FormatCsvSolution(*set, {4, 16}),
            "size,id,offset,gaps,lower,upper,alignment\n8,a,4,2-4 5-7@0:4,0,9,4\n"
            "4,b,16,,1,2,1\n");
}

TEST(CsvSolutionWriterTest, AppendsTheOffsetColumn) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv("id,lower,upper,size\nb1,0,3,4\n", "t.csv");
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(FormatCsvSolution(*set, {8}), "id,lower,upper,size,offset\nb1,0,3,4,8\n");
  // Read back: the same buffer, now fixed at 8.
  absl::StatusOr<BufferSet> back = ReadLifetimeCsv(FormatCsvSolution(*set, {8}), "s.csv");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->buffers[0].fixed_offset(), std::optional<Bytes>(8));
  EXPECT_EQ(back->buffers[0].end, 2);
}

TEST(CsvSolutionWriterTest, NonCsvBuffersGetTheBasicColumns) {
  BufferSet set;
  Buffer b;
  b.name = "x";
  b.size = 16;
  b.start = 2;
  b.end = 5;
  set.buffers.push_back(b);
  EXPECT_EQ(FormatCsvSolution(set, {32}), "id,lower,upper,size,offset\nx,2,6,16,32\n");
}

// The text is passed in pieces that join to FormatCsvSolution's, with the
// offsets asked for buffer by buffer.
TEST(CsvSolutionWriterTest, PiecesJoinToTheWholeText) {
  std::string csv = "id,lower,upper,size,gaps\n";
  for (int i = 0; i < 60000; ++i) {
    csv += std::to_string(i) + ",0,10," + std::to_string(i % 97 + 1) + (i % 3 ? ",\n" : ",2-4\n");
  }
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(csv, "t.csv");
  ASSERT_TRUE(set.ok()) << set.status();
  std::vector<Bytes> offsets;
  for (int i = 0; i < 60000; ++i) offsets.push_back(Bytes{i} * 3);
  std::vector<std::string> pieces;
  ASSERT_TRUE(WriteCsvSolution(
                  *set, [&](std::size_t i) { return offsets[i]; },
                  [&](std::string_view piece) {
                    pieces.emplace_back(piece);
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_GE(pieces.size(), 2u);
  std::string joined;
  for (const std::string& piece : pieces) joined += piece;
  EXPECT_EQ(joined, FormatCsvSolution(*set, offsets));
  EXPECT_EQ(joined.substr(0, 40), "id,lower,upper,size,gaps,offset\n0,0,10,1");
}

}  // namespace
}  // namespace memplan
