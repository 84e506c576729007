// Repacking the committed fast-memory chunks when a buffer runs out of
// memory (msa/allocator.h).
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/simulator.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::HarnessOptions;
using testing::Load;
using testing::Segments;

// 32 B of fast memory. b, a and c (8 B each, strongly memory bound) are
// placed first: b [1,2] at 0, a [0,5] at 8, c [2,5] at 16. d (16 B, [3,5])
// then finds only 8 B holes at 0 and 24: out of memory. Repacking a, c and b
// by size and live range puts a at 0, c at 8 and b at 16, which frees 16..31
// during [3,5] for d.
constexpr char kFragmented[] = R"(
entry func @main(%x: f32[2]) {
  %a = negate(%x) : f32[2] {bytes_accessed = 1600}
  %b = negate(%x) : f32[2] {bytes_accessed = 1600}
  %c = negate(%b) : f32[2] {bytes_accessed = 1600}
  %d = negate(%x) : f32[4]
  %f = negate(%x) : f32[2]
  %r = sum(%a, %c, %d) : f32[2]
  return %r
}
)";

TEST(RepackTest, RepackingMakesRoomForAFragmentedBuffer) {
  auto f = Load(kFragmented);
  MsaOptions o = HarnessOptions();
  o.fast_memory_bytes = 32;
  const MsaResult without = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, without), "");
  EXPECT_THAT(Segments(without, f->Buffer("b")), ElementsAre("1-2@0"));
  EXPECT_THAT(Segments(without, f->Buffer("a")), ElementsAre("0-5@8"));
  EXPECT_THAT(Segments(without, f->Buffer("c")), ElementsAre("2-5@16"));
  EXPECT_THAT(Segments(without, f->Buffer("d")), IsEmpty());

  o.max_repacks = 1;
  const MsaResult with = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, with), "");
  EXPECT_THAT(Segments(with, f->Buffer("a")), ElementsAre("0-5@0"));
  EXPECT_THAT(Segments(with, f->Buffer("c")), ElementsAre("2-5@8"));
  EXPECT_THAT(Segments(with, f->Buffer("b")), ElementsAre("1-2@16"));
  EXPECT_THAT(Segments(with, f->Buffer("d")), ElementsAre("3-5@16"));
  EXPECT_EQ(with.alternate_peak, 32);
}

TEST(RepackTest, RepackThatDoesNotMakeRoomStillKeepsTheOthers) {
  auto f = Load(kFragmented);
  MsaOptions o = HarnessOptions();
  o.fast_memory_bytes = 24;  // d (16 B) can never sit next to a and c
  o.max_repacks = 3;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  // One repack (once per buffer) moves the chunks; d still stays out.
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-5@0"));
  EXPECT_THAT(Segments(r, f->Buffer("c")), ElementsAre("2-5@8"));
  EXPECT_THAT(Segments(r, f->Buffer("b")), ElementsAre("1-2@16"));
  EXPECT_THAT(Segments(r, f->Buffer("d")), IsEmpty());
  EXPECT_TRUE(r.needs_default[f->Buffer("d")]);
}

// In default mode an unset max_repacks lets only the portfolio-repack
// variant repack (up to 4 times); an explicit value holds for every variant,
// and an explicit 0 drops that variant: no repacking in any variant. The
// three sliced variants (msa/sliced_prefetch.h) never repack.
TEST(RepackTest, ExplicitMaxRepacksHoldsForEveryDefaultModeVariant) {
  MsaOptions o;
  const auto budgets = DefaultModeRepackBudgets(o);
  ASSERT_EQ(budgets.size(), 14u);
  for (const auto& [name, repacks] : budgets) {
    EXPECT_EQ(repacks, name == "copy-bandwidth-0.15-portfolio-repack" ? 4 : 0) << name;
  }
  o.max_repacks = 0;
  const auto none = DefaultModeRepackBudgets(o);
  ASSERT_EQ(none.size(), 13u);
  for (const auto& [name, repacks] : none) {
    EXPECT_EQ(repacks, 0) << name;
    EXPECT_NE(name, "copy-bandwidth-0.15-portfolio-repack");
  }
  o.max_repacks = 2;
  for (const auto& [name, repacks] : DefaultModeRepackBudgets(o)) {
    EXPECT_EQ(repacks, name.ends_with("-sliced-4") ? 0 : 2) << name;
  }
  o.sliced_prefetch.max_slices = 0;
  EXPECT_EQ(DefaultModeRepackBudgets(o).size(), 11u);

  // End to end: with 0 the fragmented d still gets a chunk in default mode
  // (the size-order variant places it first), and no repack is needed.
  auto f = Load(kFragmented);
  o = HarnessOptions();
  o.fast_memory_bytes = 32;
  o.mode = MsaMode::kDefault;
  o.max_repacks = 0;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  // Default mode also keeps 4-byte windows (fast memory / 8) on that plan:
  // strictly faster than without them.
  EXPECT_EQ(r.variant, "copy-bandwidth-0.1-size-order+window-4");
  EXPECT_THAT(Segments(r, f->Buffer("d")), ElementsAre("3-5@0"));
  o.auto_window_prefetch = false;
  const MsaResult unwindowed = Assign(*f, o);
  EXPECT_EQ(unwindowed.variant, "copy-bandwidth-0.1-size-order");
  EXPECT_LT(SimulateMsa(f->analysis, *f->cost, r).elapsed_s,
            SimulateMsa(f->analysis, *f->cost, unwindowed).elapsed_s);
}

}  // namespace
}  // namespace memplan
