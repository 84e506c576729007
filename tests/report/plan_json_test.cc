#include "report/plan_json.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/unlocated.h"
#include "ir/program_builder.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

using Json = nlohmann::ordered_json;

// x (values %p, %q) in the default space, prefetched into the alternate
// space for [2, 3]; y pinned to the alternate space.
struct Case {
  Program program;
  BufferSet buffers;
  Plan plan;
};

Case MakeCase() {
  Case c;
  ProgramBuilder b("tiny");
  ComputationId main = b.AddComputation("main");
  b.SetEntry(main);
  ValueId p = b.AddParam(main, "p", 16);
  OpId op = b.AddOp(main, "exp", {p});
  ValueId q = b.AddResult(op, "q", 16);
  b.SetReturn(main, {q});
  c.program = std::move(b).Finish();

  c.buffers.input = "tiny.mpir";
  c.buffers.time_steps = 4;
  Buffer x;
  x.name = "p";
  x.values = {p, q};
  x.size = 16;
  x.start = 0;
  x.end = 3;
  x.lifetime = Lifetime::kExternal;
  Buffer y;
  y.name = "t";
  y.size = 8;
  y.start = 1;
  y.end = 2;
  y.space = kAlternateSpace;
  c.buffers.buffers = {x, y};

  Plan& plan = c.plan;
  plan.input = "tiny.mpir";
  plan.algorithm = "best-fit-spatial";
  plan.time_steps = 4;
  plan.alignment = 8;
  plan.verified = true;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 16, 8},
                 SpaceInfo{"alternate", kAlternateSpace, 64, 24, 16}};
  plan.pools = {PoolInfo{"external", Lifetime::kExternal, kDefaultSpace, 0, 16, 16, 1, 16, std::nullopt, std::nullopt},
                PoolInfo{"transient", Lifetime::kTransient, kAlternateSpace, 16, 8, 8, 1, 8, std::nullopt, std::nullopt}};
  plan.placements = {
      {"external", {Allocation{kDefaultSpace, 0, 0, 3}, Allocation{kAlternateSpace, 0, 2, 3}}},
      {"transient", {Allocation{kAlternateSpace, 16, 1, 2}}}};
  plan.copies = {AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 2, 2, 16}};
  plan.msa = MsaStats{0.25, 0.5, 0.125, 1, 0, 16, 0, 1};
  return c;
}

constexpr std::string_view kExpectedJson = R"({
  "schema": "memplan.plan/1",
  "input": "tiny.mpir",
  "algorithm": "best-fit-spatial",
  "time_steps": 4,
  "lower_bound_bytes": 0,
  "peak_bytes": 0,
  "gap_bytes": 0,
  "verified": true,
  "alignment": 8,
  "program": {"ops":1,"values":2},
  "spaces": [
    {"name":"default","id":0,"capacity_bytes":null,"peak_bytes":16,"alignment":8},
    {"name":"alternate","id":1,"capacity_bytes":64,"peak_bytes":24,"alignment":16}
  ],
  "pools": [
    {"name":"external","lifetime":"external","space":0,"offset_bytes":0,"size_bytes":16,"lower_bound_bytes":16,"buffers":1,"total_bytes":16},
    {"name":"transient","lifetime":"transient","space":1,"offset_bytes":16,"size_bytes":8,"lower_bound_bytes":8,"buffers":1,"total_bytes":8}
  ],
  "buffers": [
    {"id":0,"name":"p","values":["p","q"],"size":16,"start":0,"end":3,"pool":"external","lifetime":"external","allocations":[{"space":0,"offset":0,"start":0,"end":3},{"space":1,"offset":0,"start":2,"end":3}]},
    {"id":1,"name":"t","values":[],"size":8,"start":1,"end":2,"pool":"transient","lifetime":"transient","allocations":[{"space":1,"offset":16,"start":1,"end":2}]}
  ],
  "async_copies": [
    {"buffer":0,"kind":"prefetch","from_space":0,"to_space":1,"start":2,"done":2,"bytes":16}
  ],
  "msa": {"estimated_time_s":0.25,"time_all_default_s":0.5,"time_all_fast_s":0.125,"prefetches":1,"evictions":0,"prefetch_bytes":16,"eviction_bytes":0,"max_outstanding_copies":1}
}
)";

TEST(JsonPlanTest, WritesTheDocumentedLayout) {
  Case c = MakeCase();
  EXPECT_EQ(WritePlanJson(c.plan, c.buffers, &c.program), kExpectedJson);
}

// The time bound sits beside the estimate; plans written before it have
// none and read back without one.
TEST(JsonPlanTest, TimeBoundIsOptionalAndRoundTrips) {
  Case c = MakeCase();
  const std::string without = WritePlanJson(c.plan, c.buffers, &c.program);
  absl::StatusOr<Plan> read = ReadPlanJson(without, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->msa->time_bound_s.has_value());

  c.plan.msa->time_bound_s = 0.1875;
  const std::string with = WritePlanJson(c.plan, c.buffers, &c.program);
  EXPECT_NE(with.find("\"estimated_time_s\":0.25,\"time_bound_s\":0.1875,\"time_all_default_s\""),
            std::string::npos)
      << with;
  read = ReadPlanJson(with, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->msa->time_bound_s, 0.1875);
  EXPECT_EQ(WritePlanJson(*read, c.buffers, &c.program), with);
}

// A baseline that does not fit is written as time_all_default_fits false
// (absent when it fits, as in kExpectedJson) and read back.
TEST(JsonPlanTest, BaselineThatDoesNotFitRoundTrips) {
  Case c = MakeCase();
  c.plan.msa->time_all_default_fits = false;
  const std::string text = WritePlanJson(c.plan, c.buffers, &c.program);
  EXPECT_NE(text.find("\"time_all_default_s\":0.5,\"time_all_default_fits\":false,"),
            std::string::npos)
      << text;
  absl::StatusOr<Plan> read = ReadPlanJson(text, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->msa->time_all_default_fits);
  EXPECT_EQ(WritePlanJson(*read, c.buffers, &c.program), text);
}

// A plan made for --emit-ir / --emit-hlo that skipped sliced and window
// prefetches says so after the copy statistics (absent otherwise, as in
// kExpectedJson) and reads back; a time not computed is null.
TEST(JsonPlanTest, WholeBufferCopiesOnlyRoundTrips) {
  Case c = MakeCase();
  c.plan.msa->rewrite_skipped = {"sliced_prefetch", "window_prefetch"};
  c.plan.msa->estimated_time_with_skipped_s = 0.125;
  const std::string text = WritePlanJson(c.plan, c.buffers, &c.program);
  EXPECT_NE(text.find("\"max_outstanding_copies\":1,\"whole_buffer_copies_only\":{\"skipped\":["
                      "\"sliced_prefetch\",\"window_prefetch\"],\"estimated_time_without_s\":0.125}"),
            std::string::npos)
      << text;
  absl::StatusOr<Plan> read = ReadPlanJson(text, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->msa->rewrite_skipped, c.plan.msa->rewrite_skipped);
  EXPECT_EQ(read->msa->estimated_time_with_skipped_s, 0.125);
  EXPECT_EQ(WritePlanJson(*read, c.buffers, &c.program), text);

  c.plan.msa->estimated_time_with_skipped_s.reset();
  const std::string unknown = WritePlanJson(c.plan, c.buffers, &c.program);
  EXPECT_NE(unknown.find("\"estimated_time_without_s\":null}"), std::string::npos) << unknown;
  read = ReadPlanJson(unknown, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->msa->estimated_time_with_skipped_s.has_value());
}

TEST(JsonPlanTest, WithoutAProgramValuesAreIds) {
  Case c = MakeCase();
  c.plan.msa.reset();
  c.plan.copies.clear();
  const std::string text = WritePlanJson(c.plan, c.buffers, nullptr);
  Json doc = Json::parse(text);
  EXPECT_EQ(doc["buffers"][0]["values"], Json::parse(R"(["0","1"])"));
  EXPECT_FALSE(doc.contains("msa"));
  EXPECT_NE(text.find("\"async_copies\": []\n}\n"), std::string::npos);
}

TEST(JsonPlanTest, RoundTripIsIdentical) {
  Case c = MakeCase();
  const std::string first = WritePlanJson(c.plan, c.buffers, &c.program);
  absl::StatusOr<Plan> read = ReadPlanJson(first, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->placements[0].allocations, c.plan.placements[0].allocations);
  EXPECT_EQ(read->spaces[1].capacity, 64);
  EXPECT_FALSE(read->spaces[0].capacity.has_value());
  EXPECT_EQ(read->spaces[0].alignment, 8);
  EXPECT_EQ(read->spaces[1].alignment, 16);
  ASSERT_TRUE(read->msa.has_value());
  EXPECT_EQ(read->msa->time_all_fast_s, 0.125);
  EXPECT_EQ(WritePlanJson(*read, c.buffers, &c.program), first);

  c.plan.msa.reset();  // and without MSA statistics
  const std::string plain = WritePlanJson(c.plan, c.buffers, nullptr);
  read = ReadPlanJson(plain, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->msa.has_value());
  EXPECT_EQ(WritePlanJson(*read, c.buffers, nullptr), plain);
}

// A staged copy's intermediate chunk (memory hierarchies) is written as
// via_space and via_offset and read back; copies over one link have neither.
TEST(JsonPlanTest, StagedCopyRoundTrips) {
  Case c = MakeCase();
  EXPECT_EQ(WritePlanJson(c.plan, c.buffers, &c.program).find("via_space"), std::string::npos);
  c.plan.copies[0].via = CopyVia{kDefaultSpace, 32};
  const std::string first = WritePlanJson(c.plan, c.buffers, &c.program);
  EXPECT_NE(first.find(R"("via_space":0,"via_offset":32})"), std::string::npos);
  absl::StatusOr<Plan> read = ReadPlanJson(first, "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->copies[0].via, (CopyVia{kDefaultSpace, 32}));
  EXPECT_EQ(WritePlanJson(*read, c.buffers, &c.program), first);
}

// The written plan with one edit applied, read back; the error message.
template <typename Edit>
std::string ReadEdited(Edit edit) {
  Case c = MakeCase();
  Json doc = Json::parse(WritePlanJson(c.plan, c.buffers, &c.program));
  edit(doc);
  absl::StatusOr<Plan> read = ReadPlanJson(doc.dump(), "plan.json", c.buffers);
  EXPECT_FALSE(read.ok());
  if (read.ok()) return "";
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  return testing_located::Unlocated(std::string(read.status().message()));
}

TEST(JsonPlanTest, SyntaxErrorsAreLocated) {
  Case c = MakeCase();
  absl::StatusOr<Plan> read =
      ReadPlanJson("{\n  \"schema\": \"memplan.plan/1\",\n  \"input\": tru\n}", "p.json", c.buffers);
  EXPECT_EQ(std::string(read.status().message()),
            "p.json:3:15: error: syntax error while parsing value - invalid literal; last read: "
            "'\"input\": tru<U+000A>'");
  read = ReadPlanJson("{\"a\": 1", "p.json", c.buffers);
  EXPECT_EQ(std::string(read.status().message()),
            "p.json:1:8: error: syntax error while parsing object - unexpected end of input; "
            "expected '}'");
  read = ReadPlanJson("", "p.json", c.buffers);
  EXPECT_EQ(std::string(read.status().message()),
            "p.json:1:1: error: syntax error while parsing value - unexpected end of input; "
            "expected '[', '{', or a literal");
}

TEST(JsonPlanTest, SchemaAndShapeErrors) {
  EXPECT_EQ(ReadEdited([](Json& d) { d = Json::array(); }),
            "plan.json: error: /: expected an object, found array");
  EXPECT_EQ(ReadEdited([](Json& d) { d["schema"] = "memplan.plan/2"; }),
            "plan.json: error: /schema: expected \"memplan.plan/1\", found \"memplan.plan/2\"");
  EXPECT_EQ(ReadEdited([](Json& d) { d.erase("schema"); }), "plan.json: error: /schema: missing");
  EXPECT_EQ(ReadEdited([](Json& d) { d["verified"] = 1; }),
            "plan.json: error: /verified: expected a boolean, found number");
  EXPECT_EQ(ReadEdited([](Json& d) { d["spaces"] = Json::object(); }),
            "plan.json: error: /spaces: expected an array, found object");
  EXPECT_EQ(ReadEdited([](Json& d) { d["spaces"][1]["capacity_bytes"] = "64"; }),
            "plan.json: error: /spaces/1/capacity_bytes: expected an integer, found string");
  EXPECT_EQ(ReadEdited([](Json& d) { d["pools"][0]["size_bytes"] = 1.5; }),
            "plan.json: error: /pools/0/size_bytes: expected an integer, found number");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][1]["allocations"][0].erase("offset"); }),
            "plan.json: error: /buffers/1/allocations/0/offset: missing");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][0]["allocations"][1]["offset"] = "0"; }),
            "plan.json: error: /buffers/0/allocations/1/offset: expected an integer, found string");
  EXPECT_EQ(ReadEdited([](Json& d) {
              d["buffers"][0]["allocations"][0]["offset"] = 18446744073709551615u;
            }),
            "plan.json: error: /buffers/0/allocations/0/offset: integer out of range");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][0]["allocations"][0]["space"] = 1LL << 40; }),
            "plan.json: error: /buffers/0/allocations/0/space: 1099511627776 is outside [0, "
            "2147483647]");
  EXPECT_EQ(ReadEdited([](Json& d) { d["async_copies"][0]["kind"] = "spill"; }),
            "plan.json: error: /async_copies/0/kind: expected \"prefetch\" or \"eviction\", "
            "found \"spill\"");
  EXPECT_EQ(ReadEdited([](Json& d) { d["msa"]["estimated_time_s"] = nullptr; }),
            "plan.json: error: /msa/estimated_time_s: expected a number, found null");
  EXPECT_EQ(ReadEdited([](Json& d) { d["spaces"][1]["alignment"] = 0; }),
            "plan.json: error: /spaces/1/alignment: 0 is outside [1, 4294967296]");
  EXPECT_EQ(ReadEdited([](Json& d) { d["spaces"][1]["alignment"] = 8589934592LL; }),
            "plan.json: error: /spaces/1/alignment: 8589934592 is outside [1, 4294967296]");
  EXPECT_EQ(ReadEdited([](Json& d) { d["spaces"][0]["alignment"] = "8"; }),
            "plan.json: error: /spaces/0/alignment: expected an integer, found string");
}

// Plans written before spaces recorded their alignment: each space gets the
// plan's alignment, the only one those plans were checked against.
TEST(JsonPlanTest, SpaceWithoutAlignmentGetsThePlanAlignment) {
  Case c = MakeCase();
  Json doc = Json::parse(WritePlanJson(c.plan, c.buffers, &c.program));
  for (Json& space : doc["spaces"]) space.erase("alignment");
  absl::StatusOr<Plan> read = ReadPlanJson(doc.dump(), "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->spaces.size(), 2u);
  EXPECT_EQ(read->spaces[0].alignment, 8);
  EXPECT_EQ(read->spaces[1].alignment, 8);
}

// nlohmann keeps the last of repeated keys; the reader refuses them instead,
// at any depth, naming the key's JSON pointer.
TEST(JsonPlanTest, DuplicateKeysAreRejected) {
  Case c = MakeCase();
  const std::string text = WritePlanJson(c.plan, c.buffers, &c.program);
  const auto read_with = [&](const std::string& from, const std::string& to) {
    std::string edited = text;
    const size_t at = edited.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    edited.replace(at, from.size(), to);
    absl::StatusOr<Plan> read = ReadPlanJson(edited, "plan.json", c.buffers);
    EXPECT_FALSE(read.ok());
    return read.ok() ? std::string("OK") : std::string(read.status().message());
  };
  EXPECT_EQ(read_with("\"alignment\": 8,", "\"alignment\": 8,\n  \"alignment\": 1,"),
            "plan.json: error: /alignment: duplicate key");
  EXPECT_EQ(read_with("\"peak_bytes\":24,\"alignment\":16",
                      "\"peak_bytes\":24,\"alignment\":16,\"alignment\":1"),
            "plan.json: error: /spaces/1/alignment: duplicate key");
  EXPECT_EQ(read_with("{\"space\":1,\"offset\":16,", "{\"space\":1,\"offset\":16,\"offset\":17,"),
            "plan.json: error: /buffers/1/allocations/0/offset: duplicate key");
  EXPECT_EQ(read_with("\"msa\": {", "\"msa\": {\"prefetches\":0,"),
            "plan.json: error: /msa/prefetches: duplicate key");
  // The same key in different objects is fine.
  absl::StatusOr<Plan> read = ReadPlanJson(text, "plan.json", c.buffers);
  EXPECT_TRUE(read.ok()) << read.status();
  // ReadPlanInputOptions parses the same way.
  absl::StatusOr<std::optional<PlanInputOptions>> options =
      ReadPlanInputOptions("{\"input_options\": {\"alias\": true, \"alias\": false}}", "p.json");
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().message(), "p.json: error: /input_options/alias: duplicate key");
}

TEST(JsonPlanTest, PlanMustDescribeTheInput) {
  EXPECT_EQ(ReadEdited([](Json& d) { d["time_steps"] = 5; }),
            "plan.json: error: /time_steps: 5 differs from the input, which has 4");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"].erase(1); }),
            "plan.json: error: /buffers: lists 1 buffer but the input has 2");
  EXPECT_EQ(ReadEdited([](Json& d) { std::swap(d["buffers"][0], d["buffers"][1]); }),
            "plan.json: error: /buffers/0/id: expected 0 (buffers are listed by id), found 1");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][1]["name"] = "u"; }),
            "plan.json: error: /buffers/1/name: 'u' differs from the input's buffer 1 ('t')");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][1]["size"] = 4; }),
            "plan.json: error: /buffers/1/size: 4 differs from the input's buffer 1 ('t'), which "
            "has 8");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][1]["end"] = 3; }),
            "plan.json: error: /buffers/1/end: 3 differs from the input's buffer 1 ('t'), which "
            "has 2");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][1]["values"] = Json::array({1}); }),
            "plan.json: error: /buffers/1/values: [1] differs from the input's buffer 1 ('t'), "
            "whose values are []");
  EXPECT_EQ(ReadEdited([](Json& d) { d["buffers"][0]["lifetime"] = "constant"; }),
            "plan.json: error: /buffers/0/lifetime: 'constant' differs from the input's buffer 0 "
            "('p'), which is external");
}

// With the program the reader knows the values' names.
TEST(JsonPlanTest, ValuesMustBeTheInputsValues) {
  Case c = MakeCase();
  Json doc = Json::parse(WritePlanJson(c.plan, c.buffers, &c.program));
  doc["buffers"][0]["values"] = Json::array({"p", "nope"});
  absl::StatusOr<Plan> read = ReadPlanJson(doc.dump(), "plan.json", c.buffers, "", &c.program);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(testing_located::Unlocated(std::string(read.status().message())),
            "plan.json: error: /buffers/0/values: [\"p\",\"nope\"] differs from the input's "
            "buffer 0 ('p'), whose values are [\"p\",\"q\"]");
}

TEST(JsonPlanTest, UnknownKeysAreIgnored) {
  Case c = MakeCase();
  Json doc = Json::parse(WritePlanJson(c.plan, c.buffers, &c.program));
  doc["generator"] = "memplan 0.2";
  doc["buffers"][0]["note"] = 1;
  absl::StatusOr<Plan> read = ReadPlanJson(doc.dump(), "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->placements[1].pool, "transient");
}

}  // namespace
}  // namespace memplan
