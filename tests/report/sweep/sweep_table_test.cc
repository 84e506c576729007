#include "report/sweep/sweep_table.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report/sweep/sweep_chart.h"

namespace memplan {
namespace {

SweepRow Row(std::int64_t batch, Bytes peak, Bytes bound, Bytes total) {
  SweepRow row;
  row.point.dims = {{"batch", batch}};
  row.peak = peak;
  row.lower_bound = bound;
  row.default_bytes = total;
  row.time_steps = 3;
  row.buffers = 5;
  row.verified = true;
  return row;
}

// A point over --capacity 6KiB that needs 8 KiB: the figures of its plan
// without the limit, and the planner's message.
SweepRow OverCapacity(std::int64_t batch) {
  SweepRow row = Row(batch, 4096, 4096, 8192);
  row.over_capacity =
      "in.mpir: error: plan does not fit: default memory needs 8.00 KiB (8192 bytes), 2.00 KiB "
      "(2048 bytes) over --capacity 6KiB";
  return row;
}

// A point over capacity that does not plan without the limits either.
SweepRow NoFigures(std::int64_t batch) {
  SweepRow row;
  row.point.dims = {{"batch", batch}};
  row.over_capacity = "in.mpir: error: pinned buffer larger than the fast memory";
  return row;
}

SweepRow FastRow(Bytes fast, double estimated, double captured) {
  SweepRow row = Row(1, 128, 128, 1024);
  row.point.fast_memory = fast;
  row.alternate_bytes = fast / 2;
  MsaStats stats;
  stats.estimated_time_s = estimated;
  stats.time_bound_s = 0.001 + (estimated - 0.001) / 2;
  stats.time_all_default_s = 0.004;
  stats.time_all_fast_s = 0.001;
  stats.prefetches = 2;
  stats.evictions = 1;
  row.msa = stats;
  row.captured_speedup = captured;
  return row;
}

TEST(SweepTableTest, DimsOnlyExactTable) {
  const std::vector<SweepRow> rows = {Row(1, 1024, 1024, 3072), Row(2, 2560, 2048, 4096)};
  EXPECT_EQ(FormatSweepTable("in.mpir", rows),
            "sweep of in.mpir: 2 plans, all verified\n"
            "batch  transient extent  lower bound  over bound  default used\n"
            "1      1.00 KiB          1.00 KiB     0.0 %       3.00 KiB\n"
            "2      2.50 KiB          2.00 KiB     25.0 %      4.00 KiB\n");
}

// --algorithm exact: a line under the table says whether every search
// completed or how many stopped at which limit, and how to search longer.
TEST(SweepTableTest, ExactSearchStoppedAtTheDefaultLimitSaysSo) {
  std::vector<SweepRow> rows = {Row(1, 1024, 1024, 3072), Row(2, 2560, 2048, 4096)};
  for (SweepRow& row : rows) {
    row.search_status = "optimal";
    row.search_time_limit_seconds = 10;
    row.search_default_time_limit = true;
  }
  const std::string table =
      "sweep of in.mpir: 2 plans, all verified\n"
      "batch  transient extent  lower bound  over bound  default used\n"
      "1      1.00 KiB          1.00 KiB     0.0 %       3.00 KiB\n"
      "2      2.50 KiB          2.00 KiB     25.0 %      4.00 KiB\n";
  EXPECT_EQ(FormatSweepTable("in.mpir", rows),
            table +
                "exact search: completed at all 2 points (optimal, or proven within or over the "
                "capacity)\n");
  rows[1].search_status = "stopped";
  EXPECT_EQ(FormatSweepTable("in.mpir", rows),
            table +
                "exact search: stopped at its default time limit of 10 s at 1 of 2 points (best "
                "packing found, not proven optimal); --time-limit S searches longer\n");
  rows[1].search_default_time_limit = false;
  rows[1].search_time_limit_seconds = 2.5;
  EXPECT_EQ(FormatSweepTable("in.mpir", rows),
            table +
                "exact search: stopped at its time limit of 2.5 s at 1 of 2 points (best packing "
                "found, not proven optimal); --time-limit S searches longer\n");
}

// Over capacity: the row keeps the bytes the point needs, and a last column
// says which points fit and why the others do not.
TEST(SweepTableTest, OverCapacityRowsCarryTheBytesNeeded) {
  const std::vector<SweepRow> rows = {Row(1, 1024, 1024, 3072), OverCapacity(4), NoFigures(8)};
  EXPECT_EQ(FormatSweepTable("in.mpir", rows),
            "sweep of in.mpir: 3 plans, 1 verified, 2 do not fit\n"
            "batch  transient extent  lower bound  over bound  default used  capacity\n"
            "1      1.00 KiB          1.00 KiB     0.0 %       3.00 KiB      fits\n"
            "4      4.00 KiB          4.00 KiB     0.0 %       8.00 KiB      does not fit: default "
            "memory needs 8.00 KiB (8192 bytes), 2.00 KiB (2048 bytes) over --capacity 6KiB\n"
            "8                                                               does not fit: in.mpir: "
            "error: pinned buffer larger than the fast memory\n");
}

TEST(SweepTableTest, CapacityReasonIsWhatFollowsPlanDoesNotFit) {
  EXPECT_EQ(SweepCapacityReason("m.onnx: error: plan does not fit: transient pool needs 1 B"),
            "transient pool needs 1 B");
  EXPECT_EQ(SweepCapacityReason("m.onnx: error: other"), "m.onnx: error: other");
}

TEST(SweepTableTest, FastMemoryColumnsExactTable) {
  const std::vector<SweepRow> rows = {FastRow(0, 0.004, 0), FastRow(2048, 0.0025, 0.5)};
  EXPECT_EQ(FormatSweepTable("in.mpir", rows),
            "sweep of in.mpir: 2 plans, all verified\n"
            "batch  fast memory  transient extent  lower bound  over bound  default used  "
            "fast used  est. time  bound    captured\n"
            "1      0 B          128 B             128 B        0.0 %       1.00 KiB      "
            "0 B        4 ms       2.5 ms   0.0 %\n"
            "1      2.00 KiB     128 B             128 B        0.0 %       1.00 KiB      "
            "1.00 KiB   2.5 ms     1.75 ms  50.0 %\n");
}

TEST(SweepTableTest, CsvHasEveryFigureAndEmptyFieldsWhereNone) {
  const std::vector<SweepRow> rows = {Row(1, 1024, 1024, 3072), OverCapacity(4), NoFigures(8),
                                      FastRow(2048, 0.0025, 0.5)};
  EXPECT_EQ(FormatSweepCsv(rows),
            "batch,fast_memory_bytes,peak_bytes,lower_bound_bytes,default_bytes,alternate_bytes,"
            "estimated_time_s,time_bound_s,time_all_default_s,time_all_fast_s,captured_speedup,"
            "prefetches,evictions,time_steps,buffers,verified,over_capacity\n"
            "1,,1024,1024,3072,,,,,,,,,3,5,true,\n"
            "4,,4096,4096,8192,,,,,,,,,3,5,true,\"in.mpir: error: plan does not fit: default memory "
            "needs 8.00 KiB (8192 bytes), 2.00 KiB (2048 bytes) over --capacity 6KiB\"\n"
            "8,,,,,,,,,,,,,,,,in.mpir: error: pinned buffer larger than the fast memory\n"
            "1,2048,128,128,1024,1024,0.0025,0.00175,0.004,0.001,0.5,2,1,3,5,true,\n");
}

TEST(SweepTableTest, CsvQuotesMessagesWithCommasAndQuotes) {
  SweepRow row = NoFigures(2);
  row.over_capacity = "needs 10 bytes, has \"8\"";
  EXPECT_EQ(FormatSweepCsv({row}).substr(FormatSweepCsv({row}).find('\n') + 1),
            "2,,,,,,,,,,,,,,,,\"needs 10 bytes, has \"\"8\"\"\"\n");
}

// Counts non-overlapping occurrences of `needle`.
int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(SweepChartTest, DimsPanelHasPeakAndBoundLinesWithAGapOverCapacity) {
  const std::vector<SweepRow> rows = {Row(1, 1024, 1024, 3072), Row(2, 2048, 2048, 4096),
                                      OverCapacity(4), Row(8, 8192, 8192, 9216)};
  const std::string svg = RenderSweepChart("in.mpir", rows);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("transient extent (default-memory activations) vs batch"), std::string::npos);
  EXPECT_EQ(svg.find("estimated run time"), std::string::npos);  // no fast-memory panel
  // Peak and bound: two runs each (1-2, then 8 alone draws no line) -> 2 polylines.
  EXPECT_EQ(Count(svg, "<polyline"), 2);
  EXPECT_EQ(Count(svg, "<circle"), 6);  // 3 planned points x 2 series
  EXPECT_NE(svg.find("<title>transient extent: 8192 bytes (8.00 KiB) at 8</title>"),
            std::string::npos);
  // The gap's label says what the point needs.
  EXPECT_NE(svg.find(">does not fit<title>does not fit: --dim batch=4: default memory needs 8.00 "
                     "KiB (8192 bytes), 2.00 KiB (2048 bytes) over --capacity 6KiB</title></text>"),
            std::string::npos);
  EXPECT_EQ(svg, RenderSweepChart("in.mpir", rows));  // deterministic
}

// Two dims: the first along x, one pair of lines per value of the second.
TEST(SweepChartTest, SecondDimGivesOneLinePerValue) {
  std::vector<SweepRow> rows;
  for (std::int64_t batch : {1, 2, 4}) {
    for (std::int64_t seq : {8, 16}) {
      SweepRow row = Row(batch, 64 * batch * seq, 64 * batch * seq, 0);
      row.point.dims.emplace_back("seq", seq);
      rows.push_back(row);
    }
  }
  const std::string svg = RenderSweepChart("in.mpir", rows);
  EXPECT_NE(svg.find("(default-memory activations) vs batch"), std::string::npos);
  EXPECT_EQ(Count(svg, "<polyline"), 4);  // extent and bound for seq=8 and seq=16
  EXPECT_NE(svg.find(">transient extent, seq=8</text>"), std::string::npos);
  EXPECT_NE(svg.find(">lower bound, seq=16</text>"), std::string::npos);
  EXPECT_NE(svg.find("<title>transient extent, seq=16: 4096 bytes (4.00 KiB) at 4</title>"),
            std::string::npos);
}

TEST(SweepChartTest, FastMemoryPanelWithBoundsForOneBinding) {
  const std::vector<SweepRow> rows = {FastRow(0, 0.004, 0), FastRow(2048, 0.0025, 0.5),
                                      FastRow(4096, 0.001, 1)};
  const std::string svg = RenderSweepChart("in.mpir", rows);
  EXPECT_NE(svg.find("estimated run time vs fast-memory size"), std::string::npos);
  EXPECT_EQ(svg.find("activations) vs"), std::string::npos);  // one dims binding only
  EXPECT_EQ(Count(svg, "<polyline"), 4);  // estimate, time bound, all-default, all-fast
  EXPECT_NE(svg.find("<title>estimated time: 2.5 ms at 2.00 KiB</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>time bound: 1.75 ms at 2.00 KiB</title>"), std::string::npos);
  EXPECT_NE(svg.find(">all in default memory</text>"), std::string::npos);
}

}  // namespace
}  // namespace memplan
