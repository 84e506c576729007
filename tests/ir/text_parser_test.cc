// Happy-path parsing: every field of the model, exactly.
#include "ir/text_parser.h"

#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/ir/parse_ok.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

ValueId V(const Program& p, std::string_view name) {
  const ValueId v = p.FindValue(name);
  EXPECT_NE(v, kNoId) << name;
  return v;
}

// The example of the design brief, with distinct parameter names and the
// region called from @main.
constexpr char kBriefExample[] =
    "# comment to end of line\n"
    "program @mobilenet                       # optional, first statement\n"
    "\n"
    "entry func @main(%x: f32[1,3,224,224], %w: f32[64,3,3,3] constant, %z: 1024, %tp0: timepoint) {\n"
    "  %c = conv(%x, %w) : f32[1,64,112,112] {flops = 86704128, bytes_accessed = 3813376}\n"
    "  %r = relu(%c) : f32[1,64,112,112] tied(%c)          # in place: same storage\n"
    "  %v = reshape(%r) : f32[64,12544] view(%r, 0)         # view at byte offset 0\n"
    "  %a, %b = split(%v) : f32[32,12544] view(%v, 0), f32[32,12544] view(%v, 1605632)\n"
    "  %t = while(%a) : f32[32,12544] {cond = @cond, body = @body, trip_count = 10}\n"
    "  %k = constant() : 4096                               # raw byte size type\n"
    "  %y, %t2 = execute(%z, %tp0) : 1024, timepoint {callee = @r}\n"
    "  store(%t)                                            # op without results\n"
    "  return %t, %b\n"
    "}\n"
    "func @cond(%p: f32[32,12544]) { %q = compare(%p) : pred[]  return %q }\n"
    "func @body(%p2: f32[32,12544]) { %n = negate(%p2) : f32[32,12544]  return %n }\n"
    "region @r(%in: 1024, %tp: timepoint) affinity(\"gpu0\") {\n"
    "  %o = dispatch(%in) : 1024 {wave = 0}\n"
    "  %o2 = fill() : 512 {wave = 0}\n"
    "  %done = barrier(%tp) : timepoint\n"
    "  return %o, %done\n"
    "}\n";

TEST(TextParserTest, BriefExampleComputations) {
  const Program p = ParseOk(kBriefExample);
  EXPECT_EQ(p.name, "mobilenet");
  EXPECT_EQ(p.source, "t.mpir");
  ASSERT_EQ(p.computations.size(), 4u);
  EXPECT_EQ(p.entry, 0);
  const Computation& main = p.computations[0];
  EXPECT_EQ(main.name, "main");
  EXPECT_EQ(main.kind, ComputationKind::kFunction);
  EXPECT_EQ(main.loc.line, 4);
  EXPECT_EQ(main.loc.column, 12);
  EXPECT_THAT(main.params, ElementsAre(V(p, "x"), V(p, "w"), V(p, "z"), V(p, "tp0")));
  EXPECT_THAT(main.results, ElementsAre(V(p, "t"), V(p, "b")));
  EXPECT_EQ(main.ops.size(), 8u);
  EXPECT_EQ(main.affinity, std::nullopt);
  const Computation& r = p.computations[3];
  EXPECT_EQ(r.name, "r");
  EXPECT_EQ(r.kind, ComputationKind::kRegion);
  EXPECT_EQ(r.affinity, "gpu0");
  EXPECT_THAT(r.results, ElementsAre(V(p, "o"), V(p, "done")));
  EXPECT_EQ(p.FindComputation("cond"), 1);
  EXPECT_EQ(p.FindComputation("body"), 2);
  EXPECT_EQ(p.computations[1].loc.line, 15);
  EXPECT_EQ(p.computations[1].loc.column, 6);
}

TEST(TextParserTest, BriefExampleValues) {
  const Program p = ParseOk(kBriefExample);
  const Value& x = p.values[V(p, "x")];
  EXPECT_EQ(x.size, 602112);
  ASSERT_TRUE(x.type.has_value());
  EXPECT_EQ(x.type->dtype, "f32");
  EXPECT_THAT(x.type->dims, ElementsAre(1, 3, 224, 224));
  EXPECT_EQ(x.lifetime, std::nullopt);
  EXPECT_EQ(x.defining_op, kNoId);
  EXPECT_EQ(x.computation, 0);
  EXPECT_EQ(x.loc.line, 4);
  EXPECT_EQ(x.loc.column, 18);

  const Value& w = p.values[V(p, "w")];
  EXPECT_EQ(w.size, 6912);
  EXPECT_EQ(w.lifetime, Lifetime::kConstant);

  const Value& z = p.values[V(p, "z")];
  EXPECT_EQ(z.size, 1024);
  EXPECT_FALSE(z.type.has_value());
  EXPECT_FALSE(z.is_timepoint);

  const Value& tp0 = p.values[V(p, "tp0")];
  EXPECT_TRUE(tp0.is_timepoint);
  EXPECT_EQ(tp0.size, 0);

  const Value& rv = p.values[V(p, "r")];
  EXPECT_EQ(rv.size, 3211264);
  EXPECT_EQ(rv.alias, AliasKind::kTied);
  EXPECT_EQ(rv.alias_of, V(p, "c"));

  const Value& v = p.values[V(p, "v")];
  EXPECT_EQ(v.alias, AliasKind::kView);
  EXPECT_EQ(v.alias_of, V(p, "r"));
  EXPECT_EQ(v.view_offset, 0);
  const Value& b = p.values[V(p, "b")];
  EXPECT_EQ(b.alias, AliasKind::kView);
  EXPECT_EQ(b.alias_of, V(p, "v"));
  EXPECT_EQ(b.view_offset, 1605632);
  EXPECT_EQ(b.size, 1605632);
  EXPECT_EQ(b.loc.line, 8);
  EXPECT_EQ(b.loc.column, 7);

  EXPECT_EQ(p.values[V(p, "k")].size, 4096);
  EXPECT_EQ(p.values[V(p, "q")].size, 1);  // pred[] is one byte
  EXPECT_EQ(p.values[V(p, "q")].computation, 1);
  EXPECT_EQ(p.values[V(p, "c")].alias, AliasKind::kNone);
  // Ids follow the text: main's params, main's results in order, then @cond...
  EXPECT_EQ(V(p, "x"), 0);
  EXPECT_EQ(V(p, "tp0"), 3);
  EXPECT_EQ(V(p, "c"), 4);
  EXPECT_EQ(V(p, "p"), 13);
  EXPECT_EQ(p.values.size(), 22u);
}

TEST(TextParserTest, BriefExampleOps) {
  const Program p = ParseOk(kBriefExample);
  const Op& conv = p.ops[p.values[V(p, "c")].defining_op];
  EXPECT_EQ(conv.opcode, "conv");
  EXPECT_EQ(conv.kind, OpKind::kCompute);
  EXPECT_THAT(conv.operands, ElementsAre(V(p, "x"), V(p, "w")));
  EXPECT_THAT(conv.results, ElementsAre(V(p, "c")));
  EXPECT_EQ(conv.cost.flops, 86704128.0);
  EXPECT_EQ(conv.cost.transcendentals, 0.0);
  EXPECT_EQ(conv.cost.bytes_accessed, 3813376);
  EXPECT_EQ(conv.loc.line, 5);
  EXPECT_EQ(conv.loc.column, 8);
  EXPECT_EQ(conv.computation, 0);
  EXPECT_TRUE(conv.attributes.empty());

  const Op& loop = p.ops[p.values[V(p, "t")].defining_op];
  EXPECT_EQ(loop.kind, OpKind::kWhile);
  EXPECT_THAT(loop.callees, ElementsAre(1, 2));
  EXPECT_EQ(loop.trip_count, 10);

  const Op& split = p.ops[p.values[V(p, "a")].defining_op];
  EXPECT_THAT(split.results, ElementsAre(V(p, "a"), V(p, "b")));

  EXPECT_EQ(p.ops[p.values[V(p, "k")].defining_op].kind, OpKind::kConstant);

  const Op& exec = p.ops[p.values[V(p, "y")].defining_op];
  EXPECT_EQ(exec.kind, OpKind::kExecute);
  EXPECT_THAT(exec.callees, ElementsAre(3));
  EXPECT_THAT(exec.results, ElementsAre(V(p, "y"), V(p, "t2")));

  const Op& store = p.ops[p.computations[0].ops[7]];
  EXPECT_EQ(store.opcode, "store");
  EXPECT_TRUE(store.results.empty());
  EXPECT_THAT(store.operands, ElementsAre(V(p, "t")));
  EXPECT_EQ(store.loc.line, 12);
  EXPECT_EQ(store.loc.column, 3);
  EXPECT_EQ(p.OpName(p.computations[0].ops[7]), "store#7");

  const Op& dispatch = p.ops[p.values[V(p, "o")].defining_op];
  EXPECT_EQ(dispatch.wave, 0);
  EXPECT_EQ(p.ops[p.values[V(p, "o2")].defining_op].wave, 0);
  EXPECT_EQ(p.ops[p.values[V(p, "done")].defining_op].wave, std::nullopt);
}

TEST(TextParserTest, WhitespaceAndCommentsAreInsignificant) {
  const Program a = ParseOk("entry func @m(%x: f32[4]) { %y = exp(%x) : f32[4] return %y }");
  const Program b = ParseOk(
      "# leading comment\n"
      "entry   # after a keyword\n"
      "func\n@m\n(\n%x\n:\nf32\n[\n4\n]\n)\n{\r\n"
      "\t%y = exp ( %x ) : f32 [ 4 ]  # trailing\n"
      "return\n%y\n}\n# the end");
  ASSERT_EQ(a.values.size(), 2u);
  ASSERT_EQ(b.values.size(), 2u);
  EXPECT_EQ(b.values[1].size, 16);
  EXPECT_EQ(b.values[1].loc.line, 14);
  EXPECT_EQ(b.values[1].loc.column, 2);
  EXPECT_EQ(b.ops[0].loc.line, 14);
  EXPECT_EQ(b.ops[0].loc.column, 7);
}

TEST(TextParserTest, LeadingByteOrderMarkIsSkipped) {
  const Program p = ParseOk("\xEF\xBB\xBF" "entry func @m() {}");
  ASSERT_EQ(p.computations.size(), 1u);
  EXPECT_EQ(p.computations[0].loc.line, 1);
  EXPECT_EQ(p.computations[0].loc.column, 15);  // byte columns count the mark
}

TEST(TextParserTest, QuotedAndPunctuatedNames) {
  const Program p = ParseOk(
      "entry func @\"my model\"(%\"in put\": f32[2], %conv/w:0: f32[2]) {\n"
      "  %\"a\\\"b\\\\c\\n\\t\\x41\" = add(%\"in put\", %conv/w:0) : f32[2]\n"
      "  %\"caf\xC3\xA9\" = exp(%\"a\\\"b\\\\c\\n\\tA\") : f32[2]\n"
      "  %x.y$z-1 = relu(%\"caf\xC3\xA9\") : f32[2]\n"
      "  return %x.y$z-1\n"
      "}\n");
  EXPECT_EQ(p.computations[0].name, "my model");
  EXPECT_EQ(p.values[0].name, "in put");
  EXPECT_EQ(p.values[1].name, "conv/w:0");
  EXPECT_EQ(p.values[2].name, "a\"b\\c\n\tA");
  EXPECT_EQ(p.values[3].name, "caf\xC3\xA9");
  EXPECT_EQ(p.values[4].name, "x.y$z-1");
  EXPECT_EQ(p.values[2].loc.column, 3);
}

TEST(TextParserTest, QualifiersOnParamsAndResults) {
  const Program p = ParseOk(
      "entry func @m(%a: f32[4] space(1) external, %b: 64 variable space(0)) {\n"
      "  %c = add(%a, %b) : f32[4] staging space(2)\n"
      "  %d = exp(%c) : f32[4] space(1) tied(%c) transient\n"
      "  %e = slice(%d) : 8 view(%d, 8) constant\n"
      "  return %e\n"
      "}\n");
  const Value& a = p.values[0];
  EXPECT_EQ(a.space, 1);
  EXPECT_EQ(a.lifetime, Lifetime::kExternal);
  const Value& b = p.values[1];
  EXPECT_EQ(b.space, 0);
  EXPECT_EQ(b.lifetime, Lifetime::kVariable);
  EXPECT_EQ(b.size, 64);
  EXPECT_EQ(p.values[2].lifetime, Lifetime::kStaging);
  EXPECT_EQ(p.values[2].space, 2);
  EXPECT_EQ(p.values[3].alias, AliasKind::kTied);
  EXPECT_EQ(p.values[3].alias_of, 2);
  EXPECT_EQ(p.values[3].space, 1);
  EXPECT_EQ(p.values[3].lifetime, Lifetime::kTransient);
  EXPECT_EQ(p.values[4].alias, AliasKind::kView);
  EXPECT_EQ(p.values[4].view_offset, 8);
  EXPECT_EQ(p.values[4].lifetime, Lifetime::kConstant);
}

TEST(TextParserTest, GenericAttributesKeepSourceOrder) {
  const Program p = ParseOk(
      "entry func @m(%x: f32[4]) {\n"
      "  %y = custom.op(%x) : f32[4] {zeta = -3, alpha = 1.5e9, s = \"h\\x69\", t = true, f = false,\n"
      "      sym = @m, list = [1, [2.5, \"x\"], []], flops = 2.5, affinity = \"npu\", scratch = 64,\n"
      "      transcendentals = 7, wave_like = 0}\n"
      "  return %y\n"
      "}\n");
  const Op& op = p.ops[0];
  EXPECT_EQ(op.kind, OpKind::kCompute);
  EXPECT_EQ(op.cost.flops, 2.5);
  EXPECT_EQ(op.cost.transcendentals, 7.0);
  EXPECT_EQ(op.cost.bytes_accessed, std::nullopt);
  EXPECT_EQ(op.affinity, "npu");
  EXPECT_EQ(op.scratch_bytes, 64);
  ASSERT_EQ(op.attributes.size(), 8u);
  EXPECT_EQ(op.attributes[0].key, "zeta");
  EXPECT_EQ(op.attributes[0].value.kind, AttrValue::Kind::kInt);
  EXPECT_EQ(op.attributes[0].value.i, -3);
  EXPECT_EQ(op.attributes[1].key, "alpha");
  EXPECT_EQ(op.attributes[1].value.kind, AttrValue::Kind::kFloat);
  EXPECT_EQ(op.attributes[1].value.f, 1.5e9);
  EXPECT_EQ(op.attributes[2].value.kind, AttrValue::Kind::kString);
  EXPECT_EQ(op.attributes[2].value.s, "hi");
  EXPECT_EQ(op.attributes[3].value.kind, AttrValue::Kind::kBool);
  EXPECT_EQ(op.attributes[3].value.i, 1);
  EXPECT_EQ(op.attributes[4].value.i, 0);
  EXPECT_EQ(op.attributes[5].value.kind, AttrValue::Kind::kSymbol);
  EXPECT_EQ(op.attributes[5].value.s, "m");
  const AttrValue& list = op.attributes[6].value;
  EXPECT_EQ(list.kind, AttrValue::Kind::kList);
  ASSERT_EQ(list.list.size(), 3u);
  EXPECT_EQ(list.list[0].i, 1);
  ASSERT_EQ(list.list[1].list.size(), 2u);
  EXPECT_EQ(list.list[1].list[0].f, 2.5);
  EXPECT_EQ(list.list[1].list[1].s, "x");
  EXPECT_EQ(list.list[2].kind, AttrValue::Kind::kList);
  EXPECT_TRUE(list.list[2].list.empty());
  EXPECT_EQ(op.attributes[7].key, "wave_like");
}

TEST(TextParserTest, ControlFlowCallees) {
  const Program p = ParseOk(
      "func @t(%ta: 8) { %tb = negate(%ta) : 8  return %tb }\n"  // defined before use
      "entry func @m(%p: pred[], %a: 8) {\n"
      "  %r = conditional(%p, %a) : 8 {branches = [@t, @f]}\n"
      "  %s = call(%r) : 8 {callee = @g}\n"
      "  return %s\n"
      "}\n"
      "func @f(%fa: 8) { return %fa }\n"
      "func @g(%ga: 8) { %gb = copy(%ga) : 8  return %gb }\n");
  EXPECT_EQ(p.entry, 1);
  const Op& cond = p.ops[p.values[V(p, "r")].defining_op];
  EXPECT_EQ(cond.kind, OpKind::kConditional);
  EXPECT_THAT(cond.callees, ElementsAre(0, 2));
  const Op& call = p.ops[p.values[V(p, "s")].defining_op];
  EXPECT_EQ(call.kind, OpKind::kCall);
  EXPECT_THAT(call.callees, ElementsAre(3));
  EXPECT_THAT(p.computations[2].results, ElementsAre(V(p, "fa")));
  EXPECT_TRUE(p.computations[2].ops.empty());
}

TEST(TextParserTest, AsyncPairAndEmptyReturn) {
  const Program p = ParseOk(
      "entry func @m(%x: f32[4]) {\n"
      "  %cs = copy-start(%x) : f32[4] space(1)\n"
      "  %cd = copy-done(%cs) : f32[4] space(1)\n"
      "  store(%cd) {}\n"
      "  return\n"
      "}\n");
  EXPECT_EQ(p.ops[0].kind, OpKind::kAsyncStart);
  EXPECT_EQ(p.ops[1].kind, OpKind::kAsyncDone);
  EXPECT_TRUE(p.computations[0].results.empty());
  EXPECT_TRUE(p.ops[2].attributes.empty());
}

TEST(TextParserTest, ResultlessOpsNamedLikeQualifiers) {
  // After a result type, `view(%a)` / `view(%a, %b)` and `constant(...)`
  // start the next op; `view(%a, 0)` would be the qualifier.
  const Program p = ParseOk(
      "entry func @m(%a: 16, %b: 16) {\n"
      "  %c = add(%a, %b) : 16 constant\n"
      "  view(%c)\n"
      "  %d = exp(%c) : 16\n"
      "  view(%c, %d)\n"
      "  %e = exp(%d) : 16 variable\n"
      "  constant()\n"
      "}\n");
  ASSERT_EQ(p.ops.size(), 6u);
  EXPECT_EQ(p.ops[1].opcode, "view");
  EXPECT_THAT(p.ops[1].operands, ElementsAre(V(p, "c")));
  EXPECT_TRUE(p.ops[1].results.empty());
  EXPECT_EQ(p.ops[3].opcode, "view");
  EXPECT_THAT(p.ops[3].operands, ElementsAre(V(p, "c"), V(p, "d")));
  EXPECT_EQ(p.ops[5].opcode, "constant");
  EXPECT_EQ(p.ops[5].kind, OpKind::kConstant);
  EXPECT_EQ(p.values[V(p, "c")].lifetime, Lifetime::kConstant);
  EXPECT_EQ(p.values[V(p, "e")].lifetime, Lifetime::kVariable);
}

TEST(TextParserTest, ZeroCostAttributesAndProgramWithoutName) {
  const Program p = ParseOk("entry func @m() { %k = constant() : 0 {flops = 0, bytes_accessed = 0} return %k }");
  EXPECT_EQ(p.name, "");
  EXPECT_EQ(p.values[0].size, 0);
  EXPECT_EQ(p.ops[0].cost.bytes_accessed, 0);
}

TEST(TextParserTest, ParseProgramFileReadsExamples) {
  const std::string path = std::string(MEMPLAN_SOURCE_DIR) + "/examples/mlp.mpir";
  absl::StatusOr<Program> p = ParseProgramFile(path);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->source, path);
  EXPECT_EQ(p->name, "mlp");
  const Op& h1 = p->ops[0];
  EXPECT_EQ(h1.cost.flops, 12845056.0);
  EXPECT_EQ(h1.cost.bytes_accessed, 935936);
  EXPECT_EQ(p->ops[3].scratch_bytes, 65536);
  EXPECT_EQ(p->values[p->FindValue("y")].lifetime, Lifetime::kExternal);
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

TEST(TextParserTest, DocumentationExampleParses) {
  std::ifstream in(std::string(MEMPLAN_SOURCE_DIR) + "/docs/ir.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t open = doc.find("```\n");
  ASSERT_NE(open, std::string::npos);
  const std::size_t close = doc.find("```", open + 4);
  ASSERT_NE(close, std::string::npos);
  absl::StatusOr<Program> p = ParseProgram(doc.substr(open + 4, close - open - 4), "docs/ir.md");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->name, "mobilenet");
  EXPECT_EQ(p->computations.size(), 3u);
  EXPECT_EQ(p->values[p->FindValue("b")].view_offset, 1605632);
}

TEST(TextParserTest, DocumentationDynamicExampleParses) {
  std::ifstream in(std::string(MEMPLAN_SOURCE_DIR) + "/docs/ir.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t open = doc.find("```\nprogram @dynamic\n");
  ASSERT_NE(open, std::string::npos);
  const std::size_t close = doc.find("```", open + 4);
  ASSERT_NE(close, std::string::npos);
  absl::StatusOr<Program> p = ParseProgram(doc.substr(open + 4, close - open - 4), "docs/ir.md");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->dims.size(), 2u);
  EXPECT_TRUE(p->computations[0].initializer);
  EXPECT_EQ(p->values[p->FindValue("y")].size, 4 * 4096 + 64);
  EXPECT_EQ(p->ops.back().operand_ranges.size(), 2u);
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

// Dims, symbolic sizes, operand ranges and an initializer.
constexpr char kDynamic[] =
    "program @dyn\n"
    "dim %n <= 4096\n"
    "dim %m\n"
    "initializer func @init() {\n"
    "  %table = splat() : (64*%n)\n"
    "  return %table\n"
    "}\n"
    "entry func @main(%x: (4*%n + 64), %k: (128), %c: (2*64 + 1)) {\n"
    "  %y = exp(%x) : (4 * %n + 64)\n"
    "  %z = relu(%y) : (64 + %n * 4) tied(%y)\n"
    "  %h = slice(%z) : (2*%n) view(%z, 64)\n"
    "  %w = fill(%z[64 for 4*%n], %k) : (max(align(%n*%m, 16), 256, %m))\n"
    "  store(%z[0 for (2 + 2) * %n], %k[0 for 128])\n"
    "  return %w\n"
    "}\n";

TEST(TextParserTest, DimDeclarations) {
  const Program p = ParseOk(kDynamic);
  ASSERT_EQ(p.dims.size(), 2u);
  EXPECT_EQ(p.dims[0].name, "n");
  EXPECT_EQ(p.dims[0].bound, 4096);
  EXPECT_EQ(p.dims[0].binding, std::nullopt);
  EXPECT_EQ(p.dims[0].loc.line, 2);
  EXPECT_EQ(p.dims[0].loc.column, 5);
  EXPECT_EQ(p.dims[1].name, "m");
  EXPECT_EQ(p.dims[1].bound, std::nullopt);
}

TEST(TextParserTest, SymbolicSizesEvaluateAtTheBound) {
  const Program p = ParseOk(kDynamic);
  const SizeExpr n = SizeExpr::Dim(0);
  const Value& x = p.values[V(p, "x")];
  ASSERT_TRUE(x.size_expr.has_value());
  EXPECT_EQ(*x.size_expr, n.Scaled(4) + SizeExpr::Constant(64));
  EXPECT_EQ(x.size, 4 * 4096 + 64);
  EXPECT_FALSE(x.type.has_value());
  // Spelling does not matter: the normal forms are equal.
  EXPECT_EQ(p.values[V(p, "y")].size_expr, x.size_expr);
  EXPECT_EQ(p.values[V(p, "z")].size_expr, x.size_expr);
  // Constant expressions are static sizes.
  EXPECT_EQ(p.values[V(p, "k")].size_expr, std::nullopt);
  EXPECT_EQ(p.values[V(p, "k")].size, 128);
  EXPECT_EQ(p.values[V(p, "c")].size, 129);
  // %m has no bound or binding: evaluated at 1 until BindDims.
  const Value& w = p.values[V(p, "w")];
  ASSERT_TRUE(w.size_expr.has_value());
  EXPECT_EQ(w.size, 4096);  // max(align(4096*1, 16), 256, 1)
  EXPECT_EQ(p.values[V(p, "table")].size, 64 * 4096);
}

TEST(TextParserTest, OperandRanges) {
  const Program p = ParseOk(kDynamic);
  const Op& fill = p.ops[p.values[V(p, "w")].defining_op];
  ASSERT_EQ(fill.operand_ranges.size(), 2u);
  ASSERT_TRUE(fill.operand_ranges[0].has_value());
  EXPECT_EQ(fill.operand_ranges[0]->offset, SizeExpr::Constant(64));
  EXPECT_EQ(fill.operand_ranges[0]->length, SizeExpr::Dim(0).Scaled(4));
  EXPECT_FALSE(fill.operand_ranges[1].has_value());
  const Op& store = p.ops.back();
  ASSERT_EQ(store.operand_ranges.size(), 2u);
  EXPECT_EQ(store.operand_ranges[0]->length, SizeExpr::Dim(0).Scaled(4));
  EXPECT_EQ(store.operand_ranges[1]->length, SizeExpr::Constant(128));
  // Ops without ranges keep operand_ranges empty.
  EXPECT_TRUE(p.ops[p.values[V(p, "y")].defining_op].operand_ranges.empty());
}

TEST(TextParserTest, Initializer) {
  const Program p = ParseOk(kDynamic);
  ASSERT_EQ(p.computations.size(), 2u);
  EXPECT_TRUE(p.computations[0].initializer);
  EXPECT_EQ(p.computations[0].name, "init");
  EXPECT_FALSE(p.computations[1].initializer);
  EXPECT_EQ(p.entry, 1);
}

TEST(TextParserTest, SizeExpressionKeywordsAreContextual) {
  // Opcodes and attribute keys named like the new keywords keep working.
  const Program p = ParseOk(
      "dim %n <= 8\n"
      "entry func @m(%a: 4, %b: 4) {\n"
      "  %c = max(%a, %b) : 4 {for = 1, dim = 2}\n"
      "  %d = c.align(%c) : (align(%n, 4) + %n + 8)\n"
      "  %e = c.for(%d[max(%n, 2) for 1]) : (max(%n))\n"
      "  return %e\n"
      "}\n");
  EXPECT_EQ(p.ops[0].opcode, "max");
  EXPECT_EQ(p.ops[0].attributes[0].key, "for");
  EXPECT_EQ(p.values[V(p, "d")].size, 24);
  EXPECT_EQ(p.values[V(p, "e")].size, 8);
}

TEST(TextParserTest, UnboundedDimsProveRangesForEveryValue) {
  // 2*%n <= 4*%n for every n >= 1, bounded or not.
  const Program p = ParseOk(
      "dim %n\n"
      "entry func @m(%a: (4*%n)) {\n"
      "  store(%a[%n for %n], %a[2*%n for 2*%n])\n"
      "}\n");
  EXPECT_EQ(p.ops[0].operand_ranges.size(), 2u);
}

}  // namespace
}  // namespace memplan
