#include "io/csv/reader.h"

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace memplan {
namespace {

BufferSet Read(std::string_view text) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "t.csv");
  EXPECT_TRUE(set.ok()) << set.status();
  return set.ok() ? *set : BufferSet{};
}

std::string CsvError(std::string_view text) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "t.csv");
  EXPECT_FALSE(set.ok());
  if (set.ok()) return "";
  EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(set.status().message());
}

TEST(CsvReaderTest, ReadsTheMiniMallocExample) {
  BufferSet set = Read("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n");
  EXPECT_EQ(set.input, "t.csv");
  EXPECT_EQ(set.time_steps, 21);
  ASSERT_EQ(set.buffers.size(), 5u);
  const Buffer& b1 = set.buffers[0];
  EXPECT_EQ(b1.name, "b1");
  EXPECT_EQ(b1.size, 4);
  EXPECT_EQ(b1.start, 0);
  EXPECT_EQ(b1.end, 2);
  EXPECT_EQ(b1.alignment, 1);
  EXPECT_EQ(b1.lifetime, Lifetime::kTransient);
  EXPECT_FALSE(b1.space.has_value());
  EXPECT_TRUE(b1.values.empty());
  EXPECT_TRUE(b1.use_times().empty());
  EXPECT_EQ(set.buffers[3].name, "b4");
  EXPECT_EQ(set.buffers[3].start, 9);
  EXPECT_EQ(set.buffers[3].end, 20);
}

TEST(CsvReaderTest, ColumnsInAnyOrderWithAlignment) {
  BufferSet set = Read("size,alignment,upper,id,lower\n16,8,5,x,2\n");
  ASSERT_EQ(set.buffers.size(), 1u);
  EXPECT_EQ(set.buffers[0].name, "x");
  EXPECT_EQ(set.buffers[0].size, 16);
  EXPECT_EQ(set.buffers[0].alignment, 8);
  EXPECT_EQ(set.buffers[0].start, 2);
  EXPECT_EQ(set.buffers[0].end, 4);
  EXPECT_EQ(set.time_steps, 5);
}

TEST(CsvReaderTest, LenientLayout) {
  // BOM, CRLF, blank lines, spaces around fields, no final newline.
  BufferSet set = Read("\xEF\xBB\xBFid, lower ,upper,size\r\n\r\n  \n a ,0,1,\t7\r\nb,1,2,0");
  ASSERT_EQ(set.buffers.size(), 2u);
  EXPECT_EQ(set.buffers[0].name, "a");
  EXPECT_EQ(set.buffers[0].size, 7);
  EXPECT_EQ(set.buffers[1].name, "b");
  EXPECT_EQ(set.buffers[1].size, 0);
  EXPECT_EQ(set.time_steps, 2);
}

TEST(CsvReaderTest, HeaderOnlyIsEmpty) {
  BufferSet set = Read("id,lower,upper,size\n");
  EXPECT_TRUE(set.buffers.empty());
  EXPECT_EQ(set.time_steps, 0);
}

TEST(CsvReaderTest, EmptyFile) {
  const std::string message =
      "t.csv:1:1: error: empty file: expected a header line such as 'id,lower,upper,size'";
  EXPECT_EQ(CsvError(""), message);
  EXPECT_EQ(CsvError("\n\r\n  \n"), message);
}

TEST(CsvReaderTest, HeaderErrors) {
  EXPECT_EQ(CsvError("id,lower,size\n"),
            "t.csv:1:1: error: header lacks the required column 'upper' (expected id, lower, "
            "upper, size and optionally alignment, offset, gaps)");
  EXPECT_EQ(CsvError("\nb1,0,3,4\n"),
            "t.csv:2:1: error: missing header: the first line must name the columns, e.g. "
            "'id,lower,upper,size' (optionally with 'alignment', 'offset', 'gaps')");
  EXPECT_EQ(CsvError("id,lower,upper,size,colour\n"),
            "t.csv:1:21: error: unknown column 'colour' (expected id, lower, upper, size and "
            "optionally alignment, offset, gaps)");
  EXPECT_EQ(CsvError("id,lower,upper,size,Gaps\n"),
            "t.csv:1:21: error: unknown column 'Gaps' (column names are lower-case: 'gaps')");
  EXPECT_EQ(CsvError("id,lower,upper,lower,size\n"),
            "t.csv:1:16: error: duplicate column 'lower' (also at column 4)");
  EXPECT_EQ(CsvError("id,lower,,upper,size\n"), "t.csv:1:10: error: empty column name");
  // Column names are lower-case; another case gets a hint (and is no
  // missing header).
  EXPECT_EQ(CsvError("ID,Lower,UPPER,size\nb1,0,3,4\n"),
            "t.csv:1:1: error: unknown column 'ID' (column names are lower-case: 'id')");
  EXPECT_EQ(CsvError("id,lower,upper,size,Alignment\n"),
            "t.csv:1:21: error: unknown column 'Alignment' (column names are lower-case: "
            "'alignment')");
  // A header with another separator says which.
  EXPECT_EQ(CsvError("id\tlower\tupper\tsize\na\t0\t3\t4\n"),
            "t.csv:1:1: error: missing header: the first line must name the columns, e.g. "
            "'id,lower,upper,size' (optionally with 'alignment', 'offset', 'gaps') (columns are "
            "separated by commas; this line has tabs)");
  EXPECT_EQ(CsvError("id;lower;upper;size\na;0;3;4\n"),
            "t.csv:1:1: error: missing header: the first line must name the columns, e.g. "
            "'id,lower,upper,size' (optionally with 'alignment', 'offset', 'gaps') (columns are "
            "separated by commas; this line has semicolons)");
}

TEST(CsvReaderTest, FieldCount) {
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1,4,9\n"),
            "t.csv:2:9: error: expected 4 fields as in the header, found 5");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1\n"),
            "t.csv:2:6: error: expected 4 fields as in the header, found 3");
}

TEST(CsvReaderTest, Ids) {
  EXPECT_EQ(CsvError("id,lower,upper,size\n ,0,1,4\n"), "t.csv:2:1: error: empty id");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1,4\nb,0,1,4\na,2,3,4\n"),
            "t.csv:4:1: error: duplicate id 'a' (first on line 2)");
}

TEST(CsvReaderTest, Numbers) {
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1,x4\n"),
            "t.csv:2:7: error: expected a non-negative integer for 'size', found 'x4'");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1.5,4\n"),
            "t.csv:2:5: error: expected a non-negative integer for 'upper', found '1.5'");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,,1,4\n"),
            "t.csv:2:3: error: expected a non-negative integer for 'lower', found nothing");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,-2,1,4\n"),
            "t.csv:2:3: error: 'lower' must not be negative, found '-2'");
  // A number past 63 bits is reported against its field's real limit.
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1,9223372036854775808\n"),
            "t.csv:2:7: error: 'size' value '9223372036854775808' is above the limit of 2^62 "
            "(4611686018427387904) bytes");
  EXPECT_EQ(CsvError("id,lower,upper,size,offset\na,0,1,4,99999999999999999999\n"),
            "t.csv:2:9: error: 'offset' value '99999999999999999999' is above the limit of 2^62 "
            "(4611686018427387904) bytes");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,9223372036854775808,4\n"),
            "t.csv:2:5: error: 'upper' value '9223372036854775808' is above the limit of 2^62 "
            "(4611686018427387904) time steps");
  EXPECT_EQ(CsvError("id,lower,upper,size,alignment\na,0,1,4,9223372036854775808\n"),
            "t.csv:2:9: error: 'alignment' value '9223372036854775808' is above the limit of 2^32 "
            "(4294967296)");
  EXPECT_EQ(CsvError("id,lower,upper,size,gaps\na,0,9,4,3-9223372036854775808\n"),
            "t.csv:2:11: error: 'gap upper' value '9223372036854775808' is above the limit of "
            "2^62 (4611686018427387904) time steps");
}

TEST(CsvReaderTest, LargestValuesAreAccepted) {
  // Times, sizes and alignments stop at the limits of ir/units.h (2^62,
  // 2^62 and 2^32).
  // A row's size plus alignment - 1 bytes of padding is at most 2^62.
  BufferSet set = Read(
      "id,lower,upper,size,alignment\na,0,4611686018427387904,4611686018427387904,1\n"
      "b,0,1,4611686014132420609,4294967296\n");
  ASSERT_EQ(set.buffers.size(), 2u);
  EXPECT_EQ(set.buffers[0].end, kMaxTimeSteps - 1);
  EXPECT_EQ(set.time_steps, kMaxTimeSteps);
  EXPECT_EQ(set.buffers[0].size, kMaxTotalBytes);
  EXPECT_EQ(set.buffers[1].size, kMaxTotalBytes - kMaxAlignment + 1);
  EXPECT_EQ(set.buffers[1].alignment, kMaxAlignment);
}

TEST(CsvReaderTest, SizeAndAlignmentLimits) {
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,9223372036854775807,8\n"),
            "t.csv:2:5: error: upper 9223372036854775807 is above the limit of 2^62 "
            "(4611686018427387904) time steps");
  EXPECT_EQ(CsvError("id,lower,upper,size\nab,1,4611686018427387905,8\n"),
            "t.csv:2:6: error: upper 4611686018427387905 is above the limit of 2^62 "
            "(4611686018427387904) time steps");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1,9223372036854775807\n"),
            "t.csv:2:7: error: size 9223372036854775807 is above the limit of 2^62 "
            "(4611686018427387904) bytes");
  EXPECT_EQ(CsvError("id,lower,upper,size\na,0,1,4611686018427387905\n"),
            "t.csv:2:7: error: size 4611686018427387905 is above the limit of 2^62 "
            "(4611686018427387904) bytes");
  // One row past the total with its padding: 2^62 + (2 - 1).
  EXPECT_EQ(CsvError("id,lower,upper,size,alignment\nb1,0,3,4611686018427387904,2\n"),
            "t.csv:2:8: error: size 4611686018427387904 with alignment 2 is above the limit of "
            "2^62 (4611686018427387904) bytes counting alignment padding");
  EXPECT_EQ(CsvError("id,lower,upper,size,alignment\na,0,1,4,4294967297\n"),
            "t.csv:2:9: error: alignment 4294967297 is above the limit of 2^32 (4294967296)");
}

TEST(CsvReaderTest, RangeAndAlignment) {
  EXPECT_EQ(CsvError("id,lower,upper,size\na,3,3,4\n"),
            "t.csv:2:5: error: upper 3 must be greater than lower 3");
  EXPECT_EQ(CsvError("id,lower,upper,size,alignment\na,0,3,4,0\n"),
            "t.csv:2:9: error: alignment must be at least 1");
}

TEST(CsvReaderTest, LongLine) {
  std::string text = "id,lower,upper,size\na,0,1,4" + std::string(65536, ' ') + "\n";
  EXPECT_EQ(CsvError(text), "t.csv:2:65537: error: line longer than 65536 bytes");
  // Exactly 65536 bytes (trailing blanks are trimmed from the field) is fine.
  text = "id,lower,upper,size\na,0,1,4" + std::string(65536 - 7, ' ') + "\r\n";
  EXPECT_EQ(Read(text).buffers.size(), 1u);
}

TEST(CsvReaderTest, BadBytes) {
  EXPECT_EQ(CsvError(std::string("id,lower,upper,size\nab\0c,0,1,4\n", 31)),
            "t.csv:2:3: error: NUL byte");
  // Lines that end with CR alone (old Mac files) are one line to the reader.
  EXPECT_EQ(CsvError("id,lower,upper,size\ra,0,3,4\rb,1,2,4\r"),
            "t.csv:1:20: error: carriage return inside a line: lines end with LF or CRLF, not CR "
            "alone");
  EXPECT_EQ(CsvError("id,lower,upper,size\r\na,0,3\r,4\r\n"),
            "t.csv:2:6: error: carriage return inside a line: lines end with LF or CRLF, not CR "
            "alone");
  EXPECT_EQ(CsvError("id,lower,upper,size\n\xC3\xA9t\xC3(,0,1,4\n"),
            "t.csv:2:4: error: invalid UTF-8 sequence starting with byte 0xC3");
  EXPECT_EQ(CsvError("id,lower,upper,size\nx\xFF,0,1,4\n"),
            "t.csv:2:2: error: invalid UTF-8 sequence starting with byte 0xFF");
  EXPECT_EQ(CsvError("id,lower,upper,size\nx\xED\xA0\x80,0,1,4\n"),  // a surrogate
            "t.csv:2:2: error: invalid UTF-8 sequence starting with byte 0xED");
  EXPECT_EQ(CsvError("id,lower,upper,size\nx\xE2\x82"),  // truncated at the end
            "t.csv:2:2: error: invalid UTF-8 sequence starting with byte 0xE2");
  BufferSet set = Read("id,lower,upper,size\n\xC3\xA9t\xC3\xA9,0,1,4\n\xF0\x9F\x98\x80,0,1,4\n");
  ASSERT_EQ(set.buffers.size(), 2u);
  EXPECT_EQ(set.buffers[0].name, "\xC3\xA9t\xC3\xA9");
}

TEST(CsvReaderTest, MissingFile) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsvFile("/nonexistent/x.csv");
  EXPECT_EQ(set.status().message(),
            "/nonexistent/x.csv: error: cannot read file: No such file or directory");
}

TEST(CsvReaderTest, ReadsTheSharedData) {
  const std::filesystem::path shared = MEMPLAN_SHARED_DIR "/data";
  if (!std::filesystem::exists(shared)) GTEST_SKIP() << "no shared data";
  struct Expected {
    const char* file;
    size_t buffers;
    TimeStep time_steps;
  };
  for (const Expected& e : {Expected{"minimalloc/input.12.csv", 5, 21},
                            Expected{"minimalloc/A.1048576.csv", 154, 1048576},
                            Expected{"minimalloc/K.1048576.csv", 454, 1048576},
                            Expected{"traces/somas_resnet50.csv", 1042, 1029}}) {
    absl::StatusOr<BufferSet> set = ReadLifetimeCsvFile((shared / e.file).string());
    ASSERT_TRUE(set.ok()) << set.status();
    EXPECT_EQ(set->buffers.size(), e.buffers) << e.file;
    EXPECT_EQ(set->time_steps, e.time_steps) << e.file;
  }
}

// Mutated inputs never crash or hang: each gives buffers or a located error.
TEST(CsvReaderTest, SurvivesMutations) {
  const std::string seed =
      "id,lower,upper,size,alignment\r\nb1,0,3,4,1\nb2,3,9,4,2\n\xC3\xA9,0,9,4,4\nb4,9,21,4,8\n";
  std::mt19937 rng(7);
  int accepted = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    std::string text = seed;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = text.empty() ? 0 : rng() % text.size();
      switch (rng() % 4) {
        case 0:
          if (!text.empty()) text[at] = static_cast<char>(rng() % 256);
          break;
        case 1:
          text.insert(text.begin() + at, static_cast<char>(rng() % 256));
          break;
        case 2:
          if (!text.empty()) text.erase(at, 1 + rng() % 3);
          break;
        default:
          text.insert(at, std::string(1 + rng() % 8, ",\n0-9\r"[rng() % 6]));
      }
    }
    absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "m.csv");
    if (set.ok()) {
      ++accepted;
      for (const Buffer& b : set->buffers) {
        EXPECT_LE(b.start, b.end);
        EXPECT_LT(b.end, set->time_steps);
      }
    } else {
      EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_EQ(set.status().message().substr(0, 6), "m.csv:") << set.status();
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, 5000);
}

}  // namespace
}  // namespace memplan
