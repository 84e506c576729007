// The JSON plan of a program with execution regions: pool time ranges and the
// "regions" object (report/regions_json.h), written, read back field by field,
// and malformed.
#include <string>

#include "analysis/analyze.h"
#include "gtest/gtest.h"
#include "tests/unlocated.h"
#include "report/plan_json.h"
#include "ir/text_parser.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kProgram[] =
    "program @t\n"
    "dim %n <= 64\n"
    "entry func @main(%x: (4*%n) external, %ready: timepoint) {\n"
    "  %y, %done = execute(%x, %ready) : (4*%n) external, timepoint {callee = @r}\n"
    "  return %y, %done\n"
    "}\n"
    "region @r(%in: (4*%n), %await: timepoint) affinity(\"gpu0\") {\n"
    "  %t = dispatch(%in) : (4*%n + 64) {wave = 0}\n"
    "  %o = dispatch(%t) : (4*%n) {wave = 1}\n"
    "  return %o, %await\n"
    "}\n";

struct RegionCase {
  Program program;
  BufferSet buffers;  // 0: x (x, in), 1: y (y, o), 2: t; 3 time steps
  Plan plan;
};

SizeExpr N4() { return SizeExpr::Dim(0).Scaled(4); }

CommandRange Range(std::int32_t resource, SizeExpr offset, SizeExpr length, Bytes offset_bytes,
                   Bytes length_bytes, Access access, ValueId value) {
  return CommandRange{resource, std::move(offset), std::move(length), offset_bytes, length_bytes,
                      access, value, SizeExpr()};
}

// A hand-built region plan for kProgram at n = 64 (every field set to
// something other than its default somewhere).
RegionCase MakeRegionCase() {
  RegionCase c;
  absl::StatusOr<Program> program = ParseProgram(kProgram, "t.mpir");
  EXPECT_TRUE(program.ok()) << program.status();
  c.program = *std::move(program);
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(c.program);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  c.buffers = analysis->buffers;
  c.buffers.input = "t.mpir";
  const Program& p = c.program;

  Plan& plan = c.plan;
  plan.input = "t.mpir";
  plan.algorithm = "in-order";
  plan.time_steps = 3;
  plan.peak = 320;
  plan.lower_bound = 320;
  plan.verified = true;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 832, 1}};
  plan.pools = {
      PoolInfo{"r.slab", Lifetime::kTransient, kDefaultSpace, 0, 320, 320, 1, 320, 0, 1},
      PoolInfo{"external", Lifetime::kExternal, kDefaultSpace, 320, 256, 256, 1, 256,
               std::nullopt, std::nullopt},
      PoolInfo{"r.results.external", Lifetime::kExternal, kDefaultSpace, 576, 256, 256, 1, 256,
               0, 2}};
  plan.placements = {{"external", {Allocation{kDefaultSpace, 320, 0, 2}}},
                     {"r.results.external", {Allocation{kDefaultSpace, 576, 1, 2}}},
                     {"r.slab", {Allocation{kDefaultSpace, 0, 0, 1}}}};

  RegionPlan rp;
  rp.options = RegionPlanOptions{64, 32, 1 << 20, "in-order"};
  Resource results{"r.results.external", ResourceKind::kResults, Lifetime::kExternal, "gpu0", "r",
                   SizeExpr::AlignUp(N4(), 64), 256, {}, true, false, 0, 2};
  results.slices = {Slice{1, SizeExpr(), N4(), 0, 256, 1, 2}};
  Resource slab{"r.slab", ResourceKind::kSlab, Lifetime::kTransient, "gpu0", "r",
                SizeExpr::AlignUp(N4(), 64) + SizeExpr::Constant(64), 320, {}, false, true, 0, 1};
  slab.slices = {Slice{2, SizeExpr(), N4() + SizeExpr::Constant(64), 0, 320, 0, 1}};
  Resource external{"external", ResourceKind::kPool, Lifetime::kExternal, "", "",
                    SizeExpr::Constant(256), 256, {}, false, false, 0, 2};
  external.slices = {Slice{0, SizeExpr(), SizeExpr::Constant(256), 0, 256, 0, 2}};
  rp.resources = {results, slab, external};

  RegionInfo info;
  info.name = "r";
  info.computation = p.FindComputation("r");
  info.execute = p.values[p.FindValue("y")].defining_op;
  info.affinity = "gpu0";
  info.resources = {0, 1, 2};
  info.slab_size = slab.size;
  info.slab_bytes = 320;
  info.slab_lower_bound = 320;
  info.downstream = "r.done";
  rp.regions = {info};

  const OpId t = p.values[p.FindValue("t")].defining_op;
  const OpId o = p.values[p.FindValue("o")].defining_op;
  HostStep input{HostStepKind::kHost, "", {}, kNoId, kNoId, {}};
  input.commands = {Command{CommandKind::kInput, kNoId, 0, -1,
                            {Range(2, SizeExpr(), N4(), 0, 256, Access::kWrite, p.FindValue("x"))},
                            ""}};
  HostStep alloca{HostStepKind::kAlloca, "r.slab.ready", {"ready"}, 1, kNoId, {}};
  HostStep execute{HostStepKind::kExecute, "r.done", {"ready", "r.slab.ready"}, kNoId, 0, {}};
  execute.commands = {
      Command{CommandKind::kDispatch, t, 0, 0,
              {Range(2, SizeExpr(), N4(), 0, 256, Access::kRead, p.FindValue("in")),
               Range(1, SizeExpr(), slab.slices[0].size, 0, 320, Access::kWrite, p.FindValue("t"))},
              "dispatch"},
      Command{CommandKind::kDispatch, o, 1, 1,
              {Range(1, SizeExpr(), slab.slices[0].size, 0, 320, Access::kReadWrite,
                     p.FindValue("t")),
               Range(0, SizeExpr(), N4(), 0, 256, Access::kWrite, p.FindValue("o"))},
              "dispatch"}};
  HostStep dealloca{HostStepKind::kDealloca, "r.slab.freed", {"r.done"}, 1, kNoId, {}};
  rp.steps = {input, alloca, execute, dealloca};
  rp.warnings = {"r.slab holds t alone"};
  plan.regions = std::move(rp);
  return c;
}

// The layout: pools with their time ranges; the regions object with one key
// per line, one array element per line, slices and commands indented further.
constexpr std::string_view kExpectedTail = R"json(  "pools": [
    {"name":"r.slab","lifetime":"transient","space":0,"offset_bytes":0,"size_bytes":320,"lower_bound_bytes":320,"buffers":1,"total_bytes":320,"start":0,"end":1},
    {"name":"external","lifetime":"external","space":0,"offset_bytes":320,"size_bytes":256,"lower_bound_bytes":256,"buffers":1,"total_bytes":256},
    {"name":"r.results.external","lifetime":"external","space":0,"offset_bytes":576,"size_bytes":256,"lower_bound_bytes":256,"buffers":1,"total_bytes":256,"start":0,"end":2}
  ],
  "buffers": [
    {"id":0,"name":"x","values":["x","in"],"size":256,"start":0,"end":2,"pool":"external","lifetime":"external","allocations":[{"space":0,"offset":320,"start":0,"end":2}]},
    {"id":1,"name":"y","values":["y","o"],"size":256,"start":1,"end":2,"pool":"r.results.external","lifetime":"external","allocations":[{"space":0,"offset":576,"start":1,"end":2}]},
    {"id":2,"name":"t","values":["t"],"size":320,"start":0,"end":1,"pool":"r.slab","lifetime":"transient","allocations":[{"space":0,"offset":0,"start":0,"end":1}]}
  ],
  "async_copies": [],
  "regions": {
    "options": {"offset_alignment":64,"range_alignment":32,"max_allocation_size":1048576,"pack":"in-order"},
    "resources": [
      {"name":"r.results.external","kind":"results","lifetime":"external","affinity":"gpu0","region":"r","size":"align(4*%n, 64)","size_bytes":256,"start":0,"end":2,"escaping":true,"over_limit":false,"slices":[
        {"buffer":1,"name":"y","offset":"0","offset_bytes":0,"size":"4*%n","size_bytes":256,"start":1,"end":2}
      ]},
      {"name":"r.slab","kind":"slab","lifetime":"transient","affinity":"gpu0","region":"r","size":"align(4*%n, 64) + 64","size_bytes":320,"start":0,"end":1,"escaping":false,"over_limit":true,"slices":[
        {"buffer":2,"name":"t","offset":"0","offset_bytes":0,"size":"4*%n + 64","size_bytes":320,"start":0,"end":1}
      ]},
      {"name":"external","kind":"pool","lifetime":"external","affinity":"","region":"","size":"256","size_bytes":256,"start":0,"end":2,"escaping":false,"over_limit":false,"slices":[
        {"buffer":0,"name":"x","offset":"0","offset_bytes":0,"size":"256","size_bytes":256,"start":0,"end":2}
      ]}
    ],
    "regions": [
      {"name":"r","execute":"y","affinity":"gpu0","once":false,"resources":["r.results.external","r.slab","external"],"slab_size":"align(4*%n, 64) + 64","slab_bytes":320,"slab_lower_bound_bytes":320,"downstream":"r.done"}
    ],
    "steps": [
      {"kind":"host","signal":"","awaits":[],"resource":null,"region":null,"commands":[
        {"kind":"input","op":null,"time":0,"concurrent":-1,"detail":"","ranges":[{"resource":"external","offset":"0","offset_bytes":0,"length":"4*%n","length_bytes":256,"access":"write","value":"x"}]}
      ]},
      {"kind":"alloca","signal":"r.slab.ready","awaits":["ready"],"resource":"r.slab","region":null,"commands":[]},
      {"kind":"execute","signal":"r.done","awaits":["ready","r.slab.ready"],"resource":null,"region":"r","commands":[
        {"kind":"dispatch","op":"t","time":0,"concurrent":0,"detail":"dispatch","ranges":[{"resource":"external","offset":"0","offset_bytes":0,"length":"4*%n","length_bytes":256,"access":"read","value":"in"},{"resource":"r.slab","offset":"0","offset_bytes":0,"length":"4*%n + 64","length_bytes":320,"access":"write","value":"t"}]},
        {"kind":"dispatch","op":"o","time":1,"concurrent":1,"detail":"dispatch","ranges":[{"resource":"r.slab","offset":"0","offset_bytes":0,"length":"4*%n + 64","length_bytes":320,"access":"read-write","value":"t"},{"resource":"r.results.external","offset":"0","offset_bytes":0,"length":"4*%n","length_bytes":256,"access":"write","value":"o"}]}
      ]},
      {"kind":"dealloca","signal":"r.slab.freed","awaits":["r.done"],"resource":"r.slab","region":null,"commands":[]}
    ],
    "warnings": [
      "r.slab holds t alone"
    ]
  }
}
)json";

TEST(JsonPlanRegionsTest, WritesTheDocumentedLayout) {
  const RegionCase c = MakeRegionCase();
  const std::string text = WritePlanJson(c.plan, c.buffers, &c.program);
  const std::size_t pools = text.find("  \"pools\": [");
  ASSERT_NE(pools, std::string::npos) << text;
  EXPECT_EQ(text.substr(pools), kExpectedTail);
}

void ExpectSameRegions(const RegionPlan& a, const RegionPlan& b) {
  EXPECT_EQ(a.options.offset_alignment, b.options.offset_alignment);
  EXPECT_EQ(a.options.range_alignment, b.options.range_alignment);
  EXPECT_EQ(a.options.max_allocation_size, b.options.max_allocation_size);
  EXPECT_EQ(a.options.pack, b.options.pack);
  ASSERT_EQ(a.resources.size(), b.resources.size());
  for (std::size_t i = 0; i < a.resources.size(); ++i) {
    SCOPED_TRACE(a.resources[i].name);
    const Resource& x = a.resources[i];
    const Resource& y = b.resources[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.lifetime, y.lifetime);
    EXPECT_EQ(x.affinity, y.affinity);
    EXPECT_EQ(x.region, y.region);
    EXPECT_TRUE(x.size == y.size);
    EXPECT_EQ(x.size_bytes, y.size_bytes);
    EXPECT_EQ(x.escaping, y.escaping);
    EXPECT_EQ(x.over_limit, y.over_limit);
    EXPECT_EQ(x.start, y.start);
    EXPECT_EQ(x.end, y.end);
    ASSERT_EQ(x.slices.size(), y.slices.size());
    for (std::size_t k = 0; k < x.slices.size(); ++k) {
      EXPECT_EQ(x.slices[k].buffer, y.slices[k].buffer);
      EXPECT_TRUE(x.slices[k].offset == y.slices[k].offset);
      EXPECT_TRUE(x.slices[k].size == y.slices[k].size);
      EXPECT_EQ(x.slices[k].offset_bytes, y.slices[k].offset_bytes);
      EXPECT_EQ(x.slices[k].size_bytes, y.slices[k].size_bytes);
      EXPECT_EQ(x.slices[k].start, y.slices[k].start);
      EXPECT_EQ(x.slices[k].end, y.slices[k].end);
    }
  }
  ASSERT_EQ(a.regions.size(), b.regions.size());
  for (std::size_t i = 0; i < a.regions.size(); ++i) {
    const RegionInfo& x = a.regions[i];
    const RegionInfo& y = b.regions[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.computation, y.computation);
    EXPECT_EQ(x.execute, y.execute);
    EXPECT_EQ(x.affinity, y.affinity);
    EXPECT_EQ(x.once, y.once);
    EXPECT_EQ(x.resources, y.resources);
    EXPECT_TRUE(x.slab_size == y.slab_size);
    EXPECT_EQ(x.slab_bytes, y.slab_bytes);
    EXPECT_EQ(x.slab_lower_bound, y.slab_lower_bound);
    EXPECT_EQ(x.downstream, y.downstream);
  }
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    SCOPED_TRACE(i);
    const HostStep& x = a.steps[i];
    const HostStep& y = b.steps[i];
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.signal, y.signal);
    EXPECT_EQ(x.awaits, y.awaits);
    EXPECT_EQ(x.resource, y.resource);
    EXPECT_EQ(x.region, y.region);
    ASSERT_EQ(x.commands.size(), y.commands.size());
    for (std::size_t k = 0; k < x.commands.size(); ++k) {
      const Command& p = x.commands[k];
      const Command& q = y.commands[k];
      EXPECT_EQ(p.kind, q.kind);
      EXPECT_EQ(p.op, q.op);
      EXPECT_EQ(p.time, q.time);
      EXPECT_EQ(p.concurrent, q.concurrent);
      EXPECT_EQ(p.detail, q.detail);
      ASSERT_EQ(p.ranges.size(), q.ranges.size());
      for (std::size_t r = 0; r < p.ranges.size(); ++r) {
        EXPECT_EQ(p.ranges[r].resource, q.ranges[r].resource);
        EXPECT_TRUE(p.ranges[r].offset == q.ranges[r].offset);
        EXPECT_TRUE(p.ranges[r].length == q.ranges[r].length);
        EXPECT_EQ(p.ranges[r].offset_bytes, q.ranges[r].offset_bytes);
        EXPECT_EQ(p.ranges[r].length_bytes, q.ranges[r].length_bytes);
        EXPECT_EQ(p.ranges[r].access, q.ranges[r].access);
        EXPECT_EQ(p.ranges[r].value, q.ranges[r].value);
      }
    }
  }
  EXPECT_EQ(a.warnings, b.warnings);
}

TEST(JsonPlanRegionsTest, RoundTripRebuildsTheRegionPlan) {
  const RegionCase c = MakeRegionCase();
  const std::string text = WritePlanJson(c.plan, c.buffers, &c.program);
  absl::StatusOr<Plan> read = ReadPlanJson(text, "plan.json", c.buffers, "", &c.program);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->pools.size(), 3u);
  EXPECT_EQ(read->pools[0].lifetime, Lifetime::kTransient);
  EXPECT_EQ(read->pools[0].start, 0);
  EXPECT_EQ(read->pools[0].end, 1);
  EXPECT_EQ(read->pools[1].lifetime, Lifetime::kExternal);
  EXPECT_FALSE(read->pools[1].start.has_value());
  EXPECT_FALSE(read->pools[1].end.has_value());
  ASSERT_TRUE(read->regions.has_value());
  ExpectSameRegions(*read->regions, *c.plan.regions);
  EXPECT_EQ(WritePlanJson(*read, c.buffers, &c.program), text);

  // Unset max_allocation_size is null and reads back unset.
  RegionCase unset = MakeRegionCase();
  unset.plan.regions->options.max_allocation_size.reset();
  const std::string plain = WritePlanJson(unset.plan, unset.buffers, &unset.program);
  EXPECT_NE(plain.find("\"max_allocation_size\":null"), std::string::npos);
  read = ReadPlanJson(plain, "plan.json", unset.buffers, "", &unset.program);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_FALSE(read->regions->options.max_allocation_size.has_value());
}

// Plans written before pools recorded their lifetime had lifetime-named
// pools only.
TEST(JsonPlanRegionsTest, PoolLifetimeFromItsNameInOlderPlans) {
  const RegionCase c = MakeRegionCase();
  Json doc = Json::parse(WritePlanJson(c.plan, c.buffers, &c.program));
  doc.erase("regions");
  doc["pools"][1].erase("lifetime");
  absl::StatusOr<Plan> read = ReadPlanJson(doc.dump(), "plan.json", c.buffers);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->pools[1].lifetime, Lifetime::kExternal);
  EXPECT_FALSE(read->regions.has_value());
}

// The written plan with one edit applied, read back; the error message.
template <typename Edit>
std::string ReadEditedRegions(Edit edit, bool with_program = true) {
  const RegionCase c = MakeRegionCase();
  Json doc = Json::parse(WritePlanJson(c.plan, c.buffers, &c.program));
  edit(doc);
  absl::StatusOr<Plan> read =
      ReadPlanJson(doc.dump(), "plan.json", c.buffers, "", with_program ? &c.program : nullptr);
  EXPECT_FALSE(read.ok());
  if (read.ok()) return "";
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  return testing_located::Unlocated(std::string(read.status().message()));
}

TEST(JsonPlanRegionsTest, MalformedPoolsAreLocated) {
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["pools"][0].erase("lifetime"); }),
            "plan.json: error: /pools/0/lifetime: missing (and the pool name 'r.slab' is not a "
            "lifetime)");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["pools"][0]["lifetime"] = "forever"; }),
            "plan.json: error: /pools/0/lifetime: unknown lifetime \"forever\"");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["pools"][0].erase("end"); }),
            "plan.json: error: /pools/0/end: missing");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["pools"][2]["start"] = -1; }),
            "plan.json: error: /pools/2/start: -1 is outside [0, 4611686018427387904]");
}

TEST(JsonPlanRegionsTest, MalformedRegionsAreLocated) {
  EXPECT_EQ(ReadEditedRegions([](Json&) {}, /*with_program=*/false),
            "plan.json: error: /regions: a plan with execution regions needs an input with a "
            "program (text IR or ONNX), not a lifetime CSV");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"].erase("resources"); }),
            "plan.json: error: /regions/resources: missing");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["options"]["offset_alignment"] = 0; }),
            "plan.json: error: /regions/options/offset_alignment: 0 is outside [1, 4294967296]");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["options"]["max_allocation_size"] = "1MiB"; }),
            "plan.json: error: /regions/options/max_allocation_size: expected an integer, found "
            "string");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["resources"][1]["size"] = "4*%k"; }),
            "plan.json: error: /regions/resources/1/size: \"4*%k\" is not a size expression "
            "(column 3: unknown dim %k)");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["resources"][1]["size"] = 320; }),
            "plan.json: error: /regions/resources/1/size: expected a string, found number");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["resources"][0]["kind"] = "heap"; }),
            "plan.json: error: /regions/resources/0/kind: expected \"pool\", \"upload\", "
            "\"results\" or \"slab\", found \"heap\"");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["resources"][2]["name"] = "r.slab"; }),
            "plan.json: error: /regions/resources/2/name: duplicate resource name 'r.slab'");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["resources"][1]["slices"][0]["buffer"] = 3; }),
            "plan.json: error: /regions/resources/1/slices/0/buffer: 3 is outside [0, 2]");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["resources"][1]["slices"][0]["name"] = "u"; }),
            "plan.json: error: /regions/resources/1/slices/0/name: 'u' differs from the input's "
            "buffer 2 ('t')");
  EXPECT_EQ(ReadEditedRegions([](Json& d) {
              d["regions"]["resources"][1]["slices"][0]["offset_bytes"] = -64;
            }),
            "plan.json: error: /regions/resources/1/slices/0/offset_bytes: -64 is outside [0, "
            "4611686018427387904]");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["regions"][0]["name"] = "main"; }),
            "plan.json: error: /regions/regions/0/name: the input's program has no region @main");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["regions"][0]["execute"] = "t"; }),
            "plan.json: error: /regions/regions/0/execute: op 't' does not execute region @r");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["regions"][0]["resources"][1] = "slab"; }),
            "plan.json: error: /regions/regions/0/resources/1: no resource 'slab' in "
            "/regions/resources");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["steps"][1]["kind"] = "malloc"; }),
            "plan.json: error: /regions/steps/1/kind: expected \"alloca\", \"upload\", "
            "\"execute\", \"dealloca\", \"join\" or \"host\", found \"malloc\"");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["steps"][2]["region"] = "q"; }),
            "plan.json: error: /regions/steps/2/region: no region @q in /regions/regions");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["steps"][1]["awaits"][0] = 1; }),
            "plan.json: error: /regions/steps/1/awaits/0: expected a string, found number");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["steps"][2]["commands"][0]["op"] = "zz"; }),
            "plan.json: error: /regions/steps/2/commands/0/op: the input's program has no op "
            "'zz'");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["steps"][2]["commands"][1]["concurrent"] = -2; }),
            "plan.json: error: /regions/steps/2/commands/1/concurrent: -2 is outside [-1, "
            "2147483647]");
  EXPECT_EQ(ReadEditedRegions([](Json& d) {
              d["regions"]["steps"][2]["commands"][1]["ranges"][0]["resource"] = "nope";
            }),
            "plan.json: error: /regions/steps/2/commands/1/ranges/0/resource: no resource 'nope' "
            "in /regions/resources");
  EXPECT_EQ(ReadEditedRegions([](Json& d) {
              d["regions"]["steps"][2]["commands"][1]["ranges"][0]["access"] = "rw";
            }),
            "plan.json: error: /regions/steps/2/commands/1/ranges/0/access: expected \"read\", "
            "\"write\" or \"read-write\", found \"rw\"");
  EXPECT_EQ(ReadEditedRegions([](Json& d) {
              d["regions"]["steps"][2]["commands"][1]["ranges"][1]["length"] = "4*%n +";
            }),
            "plan.json: error: /regions/steps/2/commands/1/ranges/1/length: \"4*%n +\" is not a "
            "size expression (column 7: unexpected end of input, expected a size (an integer, a "
            "dim %name, '(', max(...) or align(...)))");
  EXPECT_EQ(ReadEditedRegions([](Json& d) {
              d["regions"]["steps"][2]["commands"][1]["ranges"][1]["value"] = "w";
            }),
            "plan.json: error: /regions/steps/2/commands/1/ranges/1/value: the input's program "
            "has no value %w");
  EXPECT_EQ(ReadEditedRegions([](Json& d) { d["regions"]["warnings"][0] = nullptr; }),
            "plan.json: error: /regions/warnings/0: expected a string, found null");
}

}  // namespace
}  // namespace memplan
