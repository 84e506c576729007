// Printer: golden output, canonical form and round trips of every example.
#include "ir/text_printer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/program_builder.h"
#include "ir/text_parser.h"
#include "ir/validate.h"
#include "tests/ir/parse_ok.h"
#include "tests/ir/program_dump.h"

namespace memplan {
namespace {

AttrValue Attr(AttrValue::Kind kind) {
  AttrValue v;
  v.kind = kind;
  return v;
}
AttrValue Int(std::int64_t i) {
  AttrValue v = Attr(AttrValue::Kind::kInt);
  v.i = i;
  return v;
}
AttrValue Float(double f) {
  AttrValue v = Attr(AttrValue::Kind::kFloat);
  v.f = f;
  return v;
}
AttrValue Bool(bool b) {
  AttrValue v = Attr(AttrValue::Kind::kBool);
  v.i = b ? 1 : 0;
  return v;
}
AttrValue Text(AttrValue::Kind kind, std::string s) {
  AttrValue v = Attr(kind);
  v.s = std::move(s);
  return v;
}
AttrValue List(std::vector<AttrValue> l) {
  AttrValue v = Attr(AttrValue::Kind::kList);
  v.list = std::move(l);
  return v;
}

// A program built in code that exercises every printed construct.
Program BuildDemo() {
  ProgramBuilder b("demo model");
  const ComputationId main = b.AddComputation("main");
  const ComputationId cond = b.AddComputation("cond");
  const ComputationId body = b.AddComputation("body");
  const ComputationId region = b.AddComputation("r", ComputationKind::kRegion);
  b.SetEntry(main);
  b.computation(region).affinity = "gpu0";

  const ValueId in = b.AddParam(main, "in:", 16, TensorType{"f32", {2, 2}});
  const ValueId w = b.AddParam(main, "w", 16, TensorType{"f32", {2, 2}});
  b.value(w).lifetime = Lifetime::kConstant;
  b.value(w).space = 1;
  const ValueId tp = b.AddParam(main, "tp", 0);
  b.value(tp).is_timepoint = true;

  const OpId mm = b.AddOp(main, "custom.matmul", {in, w});
  const ValueId h = b.AddResult(mm, "h", 16, TensorType{"f32", {2, 2}});
  Op& m = b.op(mm);
  m.affinity = "gpu\"0";
  m.cost.flops = 16;
  m.cost.transcendentals = 0.5;
  m.cost.bytes_accessed = 48;
  m.scratch_bytes = 8;
  m.attributes = {{"alpha", Float(100)}, {"neg", Float(-2.5)}, {"name", Text(AttrValue::Kind::kString, "tab\there")},
                  {"ref", Text(AttrValue::Kind::kSymbol, "a b")},   {"big", Float(1e20)}, {"flags", List({Bool(true), Bool(false), List({Int(1), Int(-2)})})}};

  const OpId relu = b.AddOp(main, "relu", {h});
  const ValueId r = b.AddResult(relu, "r", 16, TensorType{"f32", {2, 2}});
  b.value(r).alias = AliasKind::kTied;
  b.value(r).alias_of = h;
  b.value(r).lifetime = Lifetime::kVariable;

  const OpId slice = b.AddOp(main, "slice", {r});
  const ValueId v = b.AddResult(slice, "v", 8);
  b.value(v).alias = AliasKind::kView;
  b.value(v).alias_of = r;
  b.value(v).view_offset = 8;
  b.value(v).space = 0;
  b.value(v).lifetime = Lifetime::kStaging;

  const OpId loop = b.AddOp(main, "while", {v});
  const ValueId l = b.AddResult(loop, "l", 8);
  b.op(loop).callees = {cond, body};
  b.op(loop).trip_count = 3;
  b.op(loop).cost.flops = 1e20;

  const OpId exec = b.AddOp(main, "execute", {l, tp});
  const ValueId e = b.AddResult(exec, "e", 8);
  const ValueId done = b.AddResult(exec, "done", 0);
  b.value(done).is_timepoint = true;
  b.op(exec).callees = {region};
  b.AddOp(main, "store", {e});
  b.SetReturn(main, {e, done});

  const ValueId cp = b.AddParam(cond, "cp", 8);
  const ValueId pred = b.AddResult(b.AddOp(cond, "compare", {cp}), "pred", 1, TensorType{"pred", {}});
  b.SetReturn(cond, {pred});

  const ValueId bp = b.AddParam(body, "bp", 8);
  b.SetReturn(body, {bp});

  const ValueId rin = b.AddParam(region, "rin", 8);
  const ValueId rtp = b.AddParam(region, "rtp", 0);
  b.value(rtp).is_timepoint = true;
  const OpId d0 = b.AddOp(region, "dispatch", {rin});
  const ValueId ro = b.AddResult(d0, "ro", 8);
  b.op(d0).wave = 0;
  const OpId bar = b.AddOp(region, "barrier", {rtp});
  const ValueId rdone = b.AddResult(bar, "rdone", 0);
  b.value(rdone).is_timepoint = true;
  b.SetReturn(region, {ro, rdone});
  return std::move(b).Finish();
}

constexpr char kDemoText[] =
    "program @\"demo model\"\n"
    "\n"
    "entry func @main(%\"in:\": f32[2,2], %w: f32[2,2] space(1) constant, %tp: timepoint) {\n"
    "  %h = custom.matmul(%\"in:\", %w) : f32[2,2] {affinity = \"gpu\\\"0\", flops = 16, transcendentals = 0.5, "
    "bytes_accessed = 48, scratch = 8, alpha = 100.0, neg = -2.5, name = \"tab\\there\", ref = @\"a b\", "
    "big = 1e+20, flags = [true, false, [1, -2]]}\n"
    "  %r = relu(%h) : f32[2,2] tied(%h) variable\n"
    "  %v = slice(%r) : 8 view(%r, 8) space(0) staging\n"
    "  %l = while(%v) : 8 {cond = @cond, body = @body, trip_count = 3, flops = 1e+20}\n"
    "  %e, %done = execute(%l, %tp) : 8, timepoint {callee = @r}\n"
    "  store(%e)\n"
    "  return %e, %done\n"
    "}\n"
    "\n"
    "func @cond(%cp: 8) {\n"
    "  %pred = compare(%cp) : pred[]\n"
    "  return %pred\n"
    "}\n"
    "\n"
    "func @body(%bp: 8) {\n"
    "  return %bp\n"
    "}\n"
    "\n"
    "region @r(%rin: 8, %rtp: timepoint) affinity(\"gpu0\") {\n"
    "  %ro = dispatch(%rin) : 8 {wave = 0}\n"
    "  %rdone = barrier(%rtp) : timepoint\n"
    "  return %ro, %rdone\n"
    "}\n";

TEST(TextPrinterTest, GoldenBuiltProgram) {
  const Program built = BuildDemo();
  ASSERT_TRUE(ValidateProgram(built, "demo").ok()) << ValidateProgram(built, "demo");
  EXPECT_EQ(PrintProgram(built), kDemoText);
}

TEST(TextPrinterTest, BuiltProgramRoundTripsStructurally) {
  const Program built = BuildDemo();
  const Program parsed = ParseOk(PrintProgram(built));
  // The builder created values and ops in text order, so ids line up.
  EXPECT_EQ(DumpModel(parsed), DumpModel(built));
  EXPECT_EQ(PrintProgram(parsed), kDemoText);
}

TEST(TextPrinterTest, CanonicalForm) {
  const Program p = ParseOk(
      "func @f(%a: f32[2]) { return %a }  entry   func @m( %x : f32 [ 2 ] constant space(1), %y: 8 ) {\n"
      "%z = call(%x) : f32[2] {callee = @f}   %k = c.op(%z, %y) : 4 external space(0) "
      "{z = 1, scratch = 0, flops = 0, a = 2.0e0, bytes_accessed = 0, transcendentals = 3.0}\n"
      "store(%k) {} return %k }");
  EXPECT_EQ(PrintProgram(p),
            "func @f(%a: f32[2]) {\n"
            "  return %a\n"
            "}\n"
            "\n"
            "entry func @m(%x: f32[2] space(1) constant, %y: 8) {\n"
            "  %z = call(%x) : f32[2] {callee = @f}\n"
            "  %k = c.op(%z, %y) : 4 space(0) external {transcendentals = 3, bytes_accessed = 0, z = 1, a = 2.0}\n"
            "  store(%k)\n"
            "  return %k\n"
            "}\n");
}

TEST(TextPrinterTest, QuotesOnlyWhenNeeded) {
  const Program p = ParseOk(
      "entry func @\"main\"(%\"plain\": 4, %\"with space\": 4, %\"tail:\": 4, %\"caf\xC3\xA9\": 4, %a:b: 4) { }");
  EXPECT_EQ(PrintProgram(p),
            "entry func @main(%plain: 4, %\"with space\": 4, %\"tail:\": 4, %\"caf\xC3\xA9\": 4, %a:b: 4) {\n"
            "}\n");
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::filesystem::path> ExampleFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MEMPLAN_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() == ".mpir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(TextPrinterTest, EveryExampleRoundTrips) {
  const std::vector<std::filesystem::path> files = ExampleFiles();
  ASSERT_GE(files.size(), 7u);
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.string());
    absl::StatusOr<Program> first = ParseProgramFile(file.string());
    ASSERT_TRUE(first.ok()) << first.status();
    const std::string printed = PrintProgram(*first);
    absl::StatusOr<Program> second = ParseProgram(printed, "printed");
    ASSERT_TRUE(second.ok()) << second.status() << "\n" << printed;
    EXPECT_EQ(PrintProgram(*second), printed);
    EXPECT_EQ(DumpModel(*second), DumpModel(*first));
  }
}

TEST(TextPrinterTest, ExamplesCoverTheFormat) {
  // Each bundled example shows the construct it is named after.
  const auto parse = [](std::string_view name) {
    absl::StatusOr<Program> p = ParseProgramFile(std::string(MEMPLAN_SOURCE_DIR) + "/examples/" + std::string(name));
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? *std::move(p) : Program{};
  };
  const auto has_kind = [](const Program& p, OpKind kind) {
    return std::any_of(p.ops.begin(), p.ops.end(), [&](const Op& o) { return o.kind == kind; });
  };
  const Program basic = parse("basic.mpir");
  EXPECT_EQ(basic.values[basic.FindValue("h")].alias, AliasKind::kTied);
  EXPECT_EQ(basic.values[basic.FindValue("row1")].view_offset, 64);
  EXPECT_TRUE(has_kind(parse("while_loop.mpir"), OpKind::kWhile));
  EXPECT_TRUE(has_kind(parse("conditional.mpir"), OpKind::kConditional));
  EXPECT_TRUE(has_kind(parse("call.mpir"), OpKind::kCall));
  const Program async = parse("async_copy.mpir");
  EXPECT_TRUE(has_kind(async, OpKind::kAsyncStart));
  EXPECT_TRUE(has_kind(async, OpKind::kAsyncDone));
  const Program region = parse("region.mpir");
  EXPECT_TRUE(has_kind(region, OpKind::kExecute));
  EXPECT_EQ(region.computations[1].kind, ComputationKind::kRegion);
  EXPECT_EQ(region.computations[1].affinity, "gpu0");
  const Program concat = parse("concat_views.mpir");
  EXPECT_EQ(concat.values[concat.FindValue("c")].gathers.size(), 2u);
  const Program mlp = parse("mlp.mpir");
  EXPECT_EQ(mlp.ops[0].cost.flops, 12845056.0);
}

TEST(TextPrinterTest, PrintOfParseIsStable) {
  for (const std::filesystem::path& file : ExampleFiles()) {
    SCOPED_TRACE(file.string());
    absl::StatusOr<Program> p = ParseProgram(ReadFile(file), file.string());
    ASSERT_TRUE(p.ok()) << p.status();
    const std::string once = PrintProgram(*p);
    absl::StatusOr<Program> again = ParseProgram(once, "again");
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(PrintProgram(*again), once);
  }
}

TEST(TextPrinterTest, NumbersPrintExactly) {
  const Program p = ParseOk(
      "entry func @m() {\n"
      "  %k = constant() : 4 {flops = 1.5e9, transcendentals = 0.1, a = 1e-300, b = 123456789.125, c = -0.0, "
      "d = 9223372036854775807, e = -9223372036854775808}\n"
      "  return %k\n"
      "}\n");
  EXPECT_EQ(PrintProgram(p),
            "entry func @m() {\n"
            "  %k = constant() : 4 {flops = 1500000000, transcendentals = 0.1, a = 1e-300, b = 123456789.125, "
            "c = -0.0, d = 9223372036854775807, e = -9223372036854775808}\n"
            "  return %k\n"
            "}\n");
}

TEST(TextPrinterTest, DimsSymbolicSizesRangesAndInitializers) {
  const Program p = ParseOk(
      "program @dyn dim %n <= 4096 dim %\"m m\"\n"
      "initializer func @init() { %t = splat() : (64 * %n) return %t }\n"
      "entry func @main(%x: (64 + %n*4), %k: (2*64)) {\n"
      "  %y = exp(%x) : (4*%n + 64) tied(%x)\n"
      "  %w = fill(%y[(64) for %n * 4], %k) : (max(256, align(%n*%\"m m\", 16)))\n"
      "  return %w\n"
      "}\n");
  constexpr char kCanonical[] =
      "program @dyn\n"
      "dim %n <= 4096\n"
      "dim %\"m m\"\n"
      "\n"
      "initializer func @init() {\n"
      "  %t = splat() : (64*%n)\n"
      "  return %t\n"
      "}\n"
      "\n"
      "entry func @main(%x: (4*%n + 64), %k: 128) {\n"
      "  %y = exp(%x) : (4*%n + 64) tied(%x)\n"
      "  %w = fill(%y[64 for 4*%n], %k) : (max(align(%n*%\"m m\", 16), 256))\n"
      "  return %w\n"
      "}\n";
  EXPECT_EQ(PrintProgram(p), kCanonical);
  const Program again = ParseOk(kCanonical);
  EXPECT_EQ(PrintProgram(again), kCanonical);
  EXPECT_EQ(DumpModel(again), DumpModel(p));
}

TEST(TextPrinterTest, BuiltDynamicProgramRoundTrips) {
  ProgramBuilder b("built");
  const SizeExpr n = SizeExpr::Dim(b.AddDim("n", 8));
  b.AddDim("k");
  const ComputationId main = b.AddComputation("main");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 32);
  b.value(x).size_expr = n.Scaled(4);
  // A constant size_expr prints as a static size.
  const ValueId c = b.AddParam(main, "c", 12);
  b.value(c).size_expr = SizeExpr::Constant(12);
  const OpId store = b.AddOp(main, "store", {x, c});
  b.op(store).operand_ranges = {std::nullopt, OperandRange{SizeExpr::Constant(4), SizeExpr::Constant(8)}};
  const Program built = std::move(b).Finish();
  ASSERT_TRUE(ValidateProgram(built, "built").ok()) << ValidateProgram(built, "built");
  const std::string text = PrintProgram(built);
  EXPECT_EQ(text,
            "program @built\n"
            "dim %n <= 8\n"
            "dim %k\n"
            "\n"
            "entry func @main(%x: (4*%n), %c: 12) {\n"
            "  store(%x, %c[4 for 8])\n"
            "}\n");
  EXPECT_EQ(PrintProgram(ParseOk(text)), text);
}

}  // namespace
}  // namespace memplan
