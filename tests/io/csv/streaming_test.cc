// The lifetime CSV reader's memory-saving paths: a file read in chunks
// gives what the same text gives, rows are located through
// BufferSet::csv_rows (CsvFieldsOf) exactly where the fields are, and ids
// are checked for repeats whether or not they are 0, 1, 2, ...
#include <array>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/csv/reader.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

std::string StreamingCsvError(std::string_view text) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "t.csv");
  EXPECT_FALSE(set.ok());
  return set.ok() ? "" : std::string(set.status().message());
}

// The fields of every row, found by splitting the lines as the file format
// says (independently of the reader's index).
std::vector<CsvRowFields> ReferenceFields(std::string_view text) {
  constexpr std::array<std::string_view, 7> kNames = {"id",        "lower",  "upper", "size",
                                                      "alignment", "offset", "gaps"};
  std::vector<CsvRowFields> rows;
  std::vector<int> order;  // header position -> column
  std::int32_t number = 0;
  for (std::size_t pos = 0; pos < text.size() || number == 0;) {
    ++number;
    const std::size_t newline = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, newline == std::string_view::npos ? std::string_view::npos : newline - pos);
    pos = newline == std::string_view::npos ? text.size() : newline + 1;
    std::int32_t base = 0;
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) {
      line.remove_prefix(3);
      base = 3;
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    std::vector<std::pair<std::string_view, std::int32_t>> fields;
    for (std::size_t start = 0;;) {
      const std::size_t comma = line.find(',', start);
      const std::size_t stop = comma == std::string_view::npos ? line.size() : comma;
      std::size_t lo = start, hi = stop;
      while (lo < hi && (line[lo] == ' ' || line[lo] == '\t')) ++lo;
      while (hi > lo && (line[hi - 1] == ' ' || line[hi - 1] == '\t')) --hi;
      if (lo == hi) lo = start;
      fields.emplace_back(line.substr(lo, hi - lo), base + static_cast<std::int32_t>(lo) + 1);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (order.empty()) {
      for (const auto& [name, column] : fields) {
        order.push_back(static_cast<int>(std::find(kNames.begin(), kNames.end(), name) -
                                         kNames.begin()));
      }
      continue;
    }
    std::array<SourceLocation, 7> at;
    at.fill(SourceLocation{number, fields.front().second});
    for (std::size_t i = 0; i < fields.size(); ++i) at[order[i]] = {number, fields[i].second};
    rows.push_back({at[0], at[1], at[2], at[3], at[5], at[6], at[4]});
  }
  return rows;
}

void ExpectLocatedAsWritten(std::string_view text) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "t.csv");
  ASSERT_TRUE(set.ok()) << set.status();
  const std::vector<CsvRowFields> expected = ReferenceFields(text);
  ASSERT_EQ(set->buffers.size(), expected.size()) << text;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::optional<CsvRowFields> got = CsvFieldsOf(*set, i);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, expected[i]) << "row " << i << " of\n" << text;
  }
  EXPECT_FALSE(CsvFieldsOf(*set, expected.size()).has_value());
}

TEST(CsvStreamingTest, RowsAreLocatedWhereTheirFieldsAre) {
  // Rows written as their values print store nothing.
  const std::string plain = "id,lower,upper,size\n0,0,3,4\n1,3,9,40\n2,0,9,4\n";
  ExpectLocatedAsWritten(plain);
  EXPECT_TRUE(ReadLifetimeCsv(plain, "t.csv")->csv_rows.stored.empty());
  // Blank lines, blanks, leading zeros, a BOM, CRLF, other column orders,
  // offsets, alignments and gaps: each such row is stored, and the rows
  // after it are located from it.
  ExpectLocatedAsWritten("\xEF\xBB\xBFid,lower,upper,size\r\nb1,0,3,4\r\n\r\nb2 ,3,9,4\r\nb3,0,9,4\r\n");
  ExpectLocatedAsWritten("\n\nsize,upper,id,lower\n4,3,a,0\n4,9,bb,003\n4,9,ccc,3\n\n\n4,9,d,3\n");
  ExpectLocatedAsWritten(
      "id,lower,upper,size,alignment,offset,gaps\n"
      "a,0,10,64,8,,\nb,0,10,64,8,64,\nc,0,10,64,1,,2-4 6-8@0:32\nd,0,10,64,1,128,\n"
      "a_longer_name_than_seven,0,10,64,8,,\n");
  ExpectLocatedAsWritten("id,lower,upper,size,gaps\na,0,10,64,2-4\nb,0,10,64,\nc,0,10,64,\t2-4 \n");
  EXPECT_FALSE(CsvFieldsOf(BufferSet{}, 0).has_value());  // not from a CSV
}

TEST(CsvStreamingTest, MutatedRowsAreLocatedWhereTheirFieldsAre) {
  const std::string seed = "id,lower,upper,size,alignment,offset\n0,0,3,4,1,\n1,3,9,4,2,8\n2,0,9,4,4,\n";
  std::mt19937 rng(11);
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = seed;
    for (int e = 0; e < 3; ++e) {
      const std::size_t at = 37 + rng() % (text.size() - 37);  // rows only
      text.insert(at, std::string(1, " \t0\n\r"[rng() % 5]));
    }
    if (!ReadLifetimeCsv(text, "t.csv").ok()) continue;
    ++accepted;
    ExpectLocatedAsWritten(text);
    if (testing::Test::HasFailure()) break;
  }
  EXPECT_GT(accepted, 300);
}

TEST(CsvStreamingTest, RepeatedIdsInEitherOrder) {
  // Ids 0, 1, 2, ...: a repeat breaks the order.
  EXPECT_EQ(StreamingCsvError("id,lower,upper,size\n0,0,1,4\n1,0,1,4\n2,0,1,4\n1,0,1,4\n"),
            "t.csv:5:1: error: duplicate id '1' (first on line 3)");
  // The first occurrence's line counts blank lines and rows written otherwise.
  EXPECT_EQ(StreamingCsvError("id,lower,upper,size\n0,0,1,4\n\n1, 0,1,4\n\n2,0,1,4\n3,0,1,4\nx,0,1,4\n"
                     "2,0,1,4\n"),
            "t.csv:9:1: error: duplicate id '2' (first on line 6)");
  EXPECT_EQ(StreamingCsvError("id,lower,upper,size\n00,0,1,4\n0,0,1,4\n00,0,1,4\n"),
            "t.csv:4:1: error: duplicate id '00' (first on line 2)");
  // Many names: the id table grows past its first size.
  std::string text = "id,lower,upper,size\n";
  for (int i = 0; i < 5000; ++i) text += "n" + std::to_string(i * 7919 % 5000) + ",0,1,4\n";
  text += "n4999,0,1,4\n";
  int first = 0;
  while ((first * 7919) % 5000 != 4999) ++first;
  EXPECT_EQ(StreamingCsvError(text), "t.csv:5002:1: error: duplicate id 'n4999' (first on line " +
                                std::to_string(first + 2) + ")");
}

class CsvFileTest : public testing::Test {
 protected:
  std::string Write(const std::string& text) {
    const std::string path = TestTempPath(std::to_string(files_++) + ".csv");
    std::ofstream(path, std::ios::binary) << text;
    paths_.push_back(path);
    return path;
  }
  void TearDown() override {
    for (const std::string& p : paths_) std::filesystem::remove(p);
  }

 private:
  int files_ = 0;
  std::vector<std::string> paths_;
};

// Lines cut by the 1 MiB chunks of the file reader read as in one piece.
TEST_F(CsvFileTest, AFileReadsAsItsText) {
  std::string text = "\xEF\xBB\xBFid,lower,upper,size,gaps\r\n";
  std::mt19937 rng(3);
  for (int i = 0; text.size() < (5u << 20) / 2; ++i) {
    const int lower = static_cast<int>(rng() % 1000);
    text += std::to_string(i) + (i % 7 == 0 ? " " : "") + "," + std::to_string(lower) + "," +
            std::to_string(lower + 10) + "," + std::to_string(1 + rng() % 4096) +
            (i % 5 == 0 ? "," + std::to_string(lower + 2) + "-" + std::to_string(lower + 4) : ",") +
            (i % 3 == 0 ? "\r\n" : "\n") + (i % 11 == 0 ? "\n" : "");
  }
  text += "last,0,1,4,";  // no final line end
  absl::StatusOr<BufferSet> from_text = ReadLifetimeCsv(text, "t.csv");
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  const std::string path = Write(text);
  absl::StatusOr<BufferSet> from_file = ReadLifetimeCsvFile(path);
  ASSERT_TRUE(from_file.ok()) << from_file.status();
  ASSERT_EQ(from_file->buffers.size(), from_text->buffers.size());
  EXPECT_EQ(from_file->time_steps, from_text->time_steps);
  for (std::size_t i = 0; i < from_text->buffers.size(); ++i) {
    const Buffer& a = from_file->buffers[i];
    const Buffer& b = from_text->buffers[i];
    ASSERT_EQ(a.name, b.name) << i;
    ASSERT_EQ(std::tie(a.start, a.end, a.size), std::tie(b.start, b.end, b.size)) << i;
    ASSERT_EQ(a.gaps(), b.gaps()) << i;
    ASSERT_EQ(CsvFieldsOf(*from_file, i), CsvFieldsOf(*from_text, i)) << i;
  }
  EXPECT_EQ(from_file->buffers.back().name, "last");
}

// A too-long line is refused at the same column when a chunk cuts it.
TEST_F(CsvFileTest, ALongLineAcrossChunksIsRefused) {
  std::string text = "id,lower,upper,size\n";
  for (int i = 0; text.size() < (1u << 20) - 100; ++i) text += std::to_string(i) + ",0,1,4\n";
  const std::int64_t long_line =
      static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  text += "z,0,1,4" + std::string(70000, ' ') + "\r\n";
  const std::string path = Write(text);
  absl::StatusOr<BufferSet> set = ReadLifetimeCsvFile(path);
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().message(), path + ":" + std::to_string(long_line) +
                                        ":65537: error: line longer than 65536 bytes");
  EXPECT_EQ(ReadLifetimeCsv(text, path).status().message(), set.status().message());
}

TEST_F(CsvFileTest, EmptyFileAndDirectory) {
  const std::string empty = Write("");
  EXPECT_EQ(ReadLifetimeCsvFile(empty).status().message(),
            empty + ":1:1: error: empty file: expected a header line such as 'id,lower,upper,size'");
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_EQ(ReadLifetimeCsvFile(dir).status().message(),
            dir + ": error: cannot read file: Is a directory");
}

}  // namespace
}  // namespace memplan
