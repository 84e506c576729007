// Binding dims and evaluating symbolic sizes (ir/dims.h), every error message.
#include "ir/dims.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "tests/ir/parse_ok.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

// The message of a BindDims that must fail with InvalidArgument.
std::string BindError(Program& p, const std::map<std::string, std::int64_t>& bindings) {
  const absl::Status s = BindDims(p, bindings);
  if (s.ok()) return "unexpectedly bound";
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  return std::string(s.message());
}

constexpr char kTwoDims[] =
    "dim %n <= 4096\n"
    "dim %m\n"
    "entry func @main(%x: (4*%n), %y: (%n*%m + 8), %z: 16) {\n"
    "}\n";

TEST(DimsTest, PointsAndRanges) {
  Program p = ParseOk(kTwoDims);
  EXPECT_THAT(DimNames(p), ElementsAre("n", "m"));
  // Unbound: evaluated at the bound, else at 1 (BindDims reports %m).
  EXPECT_THAT(EvaluationPoint(p), ElementsAre(4096, 1));
  EXPECT_THAT(PlanningPoint(p), ElementsAre(4096, 1));
  p.dims[0].binding = 512;
  p.dims[1].binding = 3;
  EXPECT_THAT(EvaluationPoint(p), ElementsAre(512, 3));   // the binding first
  EXPECT_THAT(PlanningPoint(p), ElementsAre(4096, 3));    // the bound first
  const DimBox box = DimRanges(p);
  EXPECT_THAT(box.lower, ElementsAre(1, 1));
  EXPECT_THAT(box.upper, ElementsAre(std::optional<std::int64_t>(4096), std::nullopt));
}

TEST(DimsTest, BindDimsRecomputesSizes) {
  Program p = ParseOk(kTwoDims);
  EXPECT_EQ(p.values[p.FindValue("y")].size, 4096 + 8);
  ASSERT_TRUE(BindDims(p, {{"n", 512}, {"m", 3}}).ok());
  EXPECT_EQ(p.dims[0].binding, 512);
  EXPECT_EQ(p.dims[1].binding, 3);
  EXPECT_EQ(p.values[p.FindValue("x")].size, 2048);
  EXPECT_EQ(p.values[p.FindValue("y")].size, 512 * 3 + 8);
  EXPECT_EQ(p.values[p.FindValue("z")].size, 16);
  // Binding again replaces every binding: %n falls back to its bound.
  ASSERT_TRUE(BindDims(p, {{"m", 2}}).ok());
  EXPECT_EQ(p.dims[0].binding, std::nullopt);
  EXPECT_EQ(p.values[p.FindValue("x")].size, 4 * 4096);
  EXPECT_EQ(p.values[p.FindValue("y")].size, 4096 * 2 + 8);
}

TEST(DimsTest, ProgramWithoutDims) {
  Program p = ParseOk("entry func @m(%x: 4) {}");
  EXPECT_TRUE(BindDims(p, {}).ok());
  EXPECT_TRUE(EvaluationPoint(p).empty());
  EXPECT_EQ(BindError(p, {{"k", 3}}), "t.mpir: error: --dim k=3: the program has no dim %k (it declares no dims)");
}

TEST(DimsTest, UnknownNamesComeFirst) {
  Program p = ParseOk(kTwoDims);
  // %m has no bound or binding, but the mistyped name is reported first.
  EXPECT_EQ(BindError(p, {{"k", 3}, {"n", 5000}}),
            "t.mpir: error: --dim k=3: the program has no dim %k (its dims: %n, %m)");
}

TEST(DimsTest, BindingOutsideItsRange) {
  Program p = ParseOk(kTwoDims);
  EXPECT_EQ(BindError(p, {{"n", 5000}, {"m", 1}}), "t.mpir:1:5: error: --dim n=5000 exceeds the bound of %n (4096)");
  EXPECT_EQ(BindError(p, {{"n", 0}, {"m", 1}}), "t.mpir:1:5: error: --dim n=0 is below 1 (a dim takes values >= 1)");
  EXPECT_TRUE(BindDims(p, {{"n", 4096}, {"m", 1}}).ok());
}

TEST(DimsTest, DimWithoutBoundOrBinding) {
  Program p = ParseOk(kTwoDims);
  EXPECT_EQ(BindError(p, {}),
            "t.mpir:2:5: error: dim %m has no bound and no binding: declare `dim %m <= N` or pass --dim m=VALUE");
}

TEST(DimsTest, SizesPastTheLimitsAtTheEvaluationPoint) {
  Program p = ParseOk(
      "dim %n\n"
      "entry func @main(%x: (1073741824*%n)) {\n"
      "}\n");
  EXPECT_TRUE(BindDims(p, {{"n", 1 << 20}}).ok());
  EXPECT_EQ(p.values[0].size, std::int64_t{1} << 50);
  EXPECT_EQ(BindError(p, {{"n", (std::int64_t{1} << 32) + 1}}),
            "t.mpir:2:18: error: %x: size 1073741824*%n is 4611686019501129728 bytes at %n = 4294967297, above "
            "the limit of 2^62 (4611686018427387904) bytes");
  EXPECT_EQ(BindError(p, {{"n", std::int64_t{1} << 33}}),
            "t.mpir:2:18: error: %x: size 1073741824*%n overflows int64 at %n = 8589934592");
}

TEST(DimsTest, SizeAtPoint) {
  const std::vector<std::string> names = {"n", "m"};
  const SizeExpr n = SizeExpr::Dim(0);
  const SizeExpr m = SizeExpr::Dim(1);
  const std::vector<std::int64_t> point = {10, 3};
  absl::StatusOr<Bytes> bytes = SizeAtPoint(n.Scaled(4) + m, point, names);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, 43);
  EXPECT_EQ(SizeAtPoint(n.Scaled(std::int64_t{1} << 62), point, names).status().message(),
            "size 4611686018427387904*%n overflows int64 at %n = 10");
  EXPECT_EQ(SizeAtPoint(SizeExpr::Constant(kMaxTotalBytes + 1), point, names).status().message(),
            "size 4611686018427387905 is 4611686018427387905 bytes, above the limit of 2^62 (4611686018427387904) "
            "bytes");
  EXPECT_EQ(SizeAtPoint(SizeExpr::Dim(2), point, names).status().message(),
            "size mentions dim #2, but the program declares 2 dims");
}

}  // namespace
}  // namespace memplan
