#include "regions/slice_layout.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace memplan {
namespace {

const std::vector<std::string> kNames = {"a", "b"};

LayoutOptions Options16(std::vector<std::int64_t> planning = {1000, 1000}) {
  LayoutOptions o;
  o.offset_alignment = 16;
  o.range_alignment = 16;
  o.planning_point = planning;
  o.box.lower = {1, 1};
  o.box.upper = {planning[0], planning[1]};
  return o;
}

LayoutItem Static(Bytes size, TimeStep start, TimeStep end) {
  return LayoutItem{SizeExpr::Constant(size), start, end};
}

LayoutItem Dynamic(DimId d, TimeStep start, TimeStep end) {
  return LayoutItem{SizeExpr::Dim(d), start, end};
}

std::vector<std::string> Texts(const LayoutResult& r) {
  std::vector<std::string> out;
  for (const SizeExpr& e : r.offsets) out.push_back(e.ToString(kNames));
  return out;
}

// IREE's layout_slices.mlir layoutStatic: the reference's worked example.
const std::vector<LayoutItem> kLayoutStatic = {
    Static(100, 0, 1), Static(100, 1, 2), Static(100, 2, 3),
    Static(200, 0, 4), Static(200, 5, 6), Static(100, 5, 8)};

TEST(SliceLayout, InOrderReproducesIreeLayoutStatic) {
  const LayoutResult r = InOrderLayout(kLayoutStatic, Options16());
  EXPECT_EQ(Texts(r), (std::vector<std::string>{"0", "112", "0", "224", "0", "208"}));
  EXPECT_EQ(r.total.ToString(kNames), "432");
  EXPECT_EQ(r.algorithm, "in-order");
}

TEST(SliceLayout, PackedLayoutIsNoWorseThanIreeOnLayoutStatic) {
  const LayoutResult r = PackedLayout(kLayoutStatic, PackingAlgorithm::kAuto, Options16());
  ASSERT_TRUE(r.total.ConstantValue().has_value());
  EXPECT_LE(*r.total.ConstantValue(), 432);
  // At step 1 slices 1, 2 and 4 are live: 112 + 112 + 208 = 432 padded bytes,
  // so IREE's layout is already at the lower bound and so is memplan's.
  EXPECT_EQ(*r.total.ConstantValue(), 432);
}

// layoutDynamic: sizes a, b, a at [0,1] [1,2] [2,3]: the two size-a slices
// share offset 0; b stacks after a.
TEST(SliceLayout, InOrderReproducesIreeLayoutDynamic) {
  const LayoutResult r =
      InOrderLayout({Dynamic(0, 0, 1), Dynamic(1, 1, 2), Dynamic(0, 2, 3)}, Options16());
  EXPECT_EQ(Texts(r), (std::vector<std::string>{"0", "align(%a, 16)", "0"}));
  EXPECT_EQ(r.total.ToString(kNames), "align(%a, 16) + align(%b, 16)");
}

// layoutMixedStaticDynamic: static 100 [0,1] and 200 [5,6] share offset 0;
// the dynamic slices stack after the static part even where lifetimes allow
// sharing.
TEST(SliceLayout, InOrderReproducesIreeLayoutMixedStaticDynamic) {
  const LayoutResult r = InOrderLayout(
      {Static(100, 0, 1), Dynamic(0, 1, 2), Dynamic(1, 2, 3), Static(200, 5, 6)}, Options16());
  EXPECT_EQ(Texts(r), (std::vector<std::string>{"0", "208", "align(%a, 16) + 208", "0"}));
  EXPECT_EQ(r.total.ToString(kNames), "align(%a, 16) + align(%b, 16) + 208");
}

// memplan's layout of the same slices: the dynamic slices start at 0 where
// the static ones allow, so the total is below IREE's for every binding.
TEST(SliceLayout, PackedLayoutSharesStaticWithDynamic) {
  const std::vector<LayoutItem> items = {Static(100, 0, 1), Dynamic(0, 1, 2), Dynamic(1, 2, 3),
                                         Static(200, 5, 6)};
  const LayoutOptions options = Options16();
  const LayoutResult packed = PackedLayout(items, PackingAlgorithm::kAuto, options);
  const LayoutResult iree = InOrderLayout(items, options);
  for (std::int64_t a : {1, 7, 100, 1000}) {
    for (std::int64_t b : {1, 33, 1000}) {
      const std::vector<std::int64_t> point = {a, b};
      EXPECT_LT(*packed.total.Evaluate(point), *iree.total.Evaluate(point)) << a << "," << b;
      // Slices live together never overlap at this binding.
      for (std::size_t i = 0; i < items.size(); ++i) {
        for (std::size_t j = i + 1; j < items.size(); ++j) {
          if (items[i].start > items[j].end || items[j].start > items[i].end) continue;
          const Bytes oi = *packed.offsets[i].Evaluate(point), oj = *packed.offsets[j].Evaluate(point);
          const Bytes si = *items[i].size.Evaluate(point), sj = *items[j].size.Evaluate(point);
          EXPECT_TRUE(oi + si <= oj || oj + sj <= oi) << i << " " << j;
        }
      }
    }
  }
}

// Two dynamic slices of different sizes never live together: they share
// offset 0 (IREE would stack them, as they have different size values).
TEST(SliceLayout, DifferentDynamicSizesShareWhenNeverLiveTogether) {
  const LayoutResult r =
      PackedLayout({Dynamic(0, 0, 1), Dynamic(1, 2, 3)}, PackingAlgorithm::kAuto, Options16());
  EXPECT_EQ(Texts(r), (std::vector<std::string>{"0", "0"}));
  EXPECT_EQ(r.total.ToString(kNames), "max(align(%a, 16), align(%b, 16))");
  const LayoutResult iree = InOrderLayout({Dynamic(0, 0, 1), Dynamic(1, 2, 3)}, Options16());
  EXPECT_EQ(iree.total.ToString(kNames), "align(%a, 16) + align(%b, 16)");
}

TEST(SliceLayout, StackLayoutNeverShares) {
  const LayoutResult r =
      StackLayout({Static(8, 0, 0), Dynamic(0, 0, 0), Static(16, 0, 0)}, Options16());
  EXPECT_EQ(Texts(r), (std::vector<std::string>{"0", "16", "align(%a, 16) + 16"}));
  EXPECT_EQ(r.total.ToString(kNames), "align(%a, 16) + 32");
}

TEST(SliceLayout, OrientedLayoutKeepsStaticOffsets) {
  const LayoutResult r =
      OrientedLayout({Static(100, 0, 1), Static(50, 1, 2)}, {64, 0}, Options16(), "given");
  EXPECT_EQ(Texts(r), (std::vector<std::string>{"64", "0"}));
  EXPECT_EQ(r.total.ToString(kNames), "176");
  EXPECT_EQ(r.algorithm, "given");
}

}  // namespace
}  // namespace memplan
