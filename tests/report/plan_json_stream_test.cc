// The plan JSON's buffers are written one by one as text, not built as a
// document (report/plan_json.h, WritePlanJsonTo): each entry must be what
// nlohmann writes for it, and the pieces must join to WritePlanJson's text.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/json_util.h"
#include "nlohmann/json.hpp"
#include "report/plan_json.h"

namespace memplan {
namespace {

struct StreamPlanned {
  BufferSet buffers;
  Plan plan;
};

// `n` buffers with names that need escaping among plain ones, some with
// gaps, placed with zero, one or two allocations in pools of any name.
StreamPlanned MakeStreamPlan(int n) {
  const std::vector<std::string> names = {
      "plain", "q\"uote", "back\\slash", "tab\there", std::string("ctl\x01", 4), "\xC3\xA9t\xC3\xA9",
      "del\x7F", "bad\xFF utf8", "", std::string(40, 'n'), "12345678"};
  StreamPlanned p;
  p.buffers.time_steps = 100;
  p.plan.time_steps = 100;
  for (int i = 0; i < n; ++i) {
    Buffer b;
    b.name = i < static_cast<int>(names.size()) ? names[i] : std::to_string(i);
    b.size = 1 + i % 7;
    b.start = i % 50;
    b.end = b.start + 1 + i % 40;
    if (i % 3 == 0 && b.end - b.start > 2) b.mutable_gaps() = {StepRange{b.start + 1, b.start + 1}};
    if (i % 5 == 0) b.values = {i, i + 1};
    p.buffers.buffers.push_back(b);
    BufferPlacement placement;
    placement.pool = i % 4 == 0 ? "r.\"slab\"" : "transient";
    for (int k = 0; k < i % 3; ++k) {
      placement.allocations.push_back(Allocation{k, Bytes{i} * 8, b.start, b.end});
    }
    p.plan.placements.push_back(placement);
  }
  return p;
}

TEST(PlanJsonStreamTest, EachBufferIsWhatNlohmannWrites) {
  const StreamPlanned p = MakeStreamPlan(40);
  const std::string text = WritePlanJson(p.plan, p.buffers, nullptr);
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
  const std::string start = "\"buffers\": [\n";
  std::size_t at = text.find(start);
  ASSERT_NE(at, std::string::npos);
  at += start.size();
  const nlohmann::ordered_json& entries = doc["buffers"];
  ASSERT_EQ(entries.size(), p.buffers.buffers.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    EXPECT_EQ(line, "    " + json_internal::Dump(entries[i]) + (i + 1 < entries.size() ? "," : "")) << i;
    at = end + 1;
  }
  EXPECT_EQ(text.substr(at, 3), "  ]");
  EXPECT_EQ(entries[1]["name"], "q\"uote");
  EXPECT_EQ(entries[4]["name"], std::string("ctl\x01", 4));
  EXPECT_EQ(entries[0]["pool"], "r.\"slab\"");
  EXPECT_EQ(entries[3]["gaps"], nlohmann::ordered_json::parse("[[4,4]]"));
  EXPECT_EQ(entries[5]["values"], nlohmann::ordered_json::parse(R"(["5","6"])"));
}

TEST(PlanJsonStreamTest, PiecesJoinToTheWholeText) {
  const StreamPlanned p = MakeStreamPlan(20000);  // about 2 MB of text
  const std::string whole = WritePlanJson(p.plan, p.buffers, nullptr);
  std::vector<std::string> pieces;
  const auto record = [&](std::string_view piece) {
    pieces.emplace_back(piece);
    return absl::OkStatus();
  };
  ASSERT_TRUE(WritePlanJsonTo(p.plan, p.buffers, nullptr, {}, record).ok());
  EXPECT_GE(pieces.size(), 2u);
  std::string joined;
  for (const std::string& piece : pieces) joined += piece;
  EXPECT_EQ(joined, whole);
  // A sink's error stops the writing and is returned.
  int calls = 0;
  const auto failing = [&](std::string_view) {
    ++calls;
    return absl::DataLossError("disk full");
  };
  EXPECT_EQ(WritePlanJsonTo(p.plan, p.buffers, nullptr, {}, failing),
            absl::DataLossError("disk full"));
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace memplan
