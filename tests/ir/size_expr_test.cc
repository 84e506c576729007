#include "ir/size_expr.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace memplan {
namespace {

const std::vector<std::string> kNames = {"n", "m", "a b"};

SizeExpr N() { return SizeExpr::Dim(0); }
SizeExpr M() { return SizeExpr::Dim(1); }
SizeExpr C(Bytes bytes) { return SizeExpr::Constant(bytes); }
std::string Text(const SizeExpr& e) { return e.ToString(kNames); }

SizeExpr Product(const SizeExpr& a, const SizeExpr& b) {
  absl::StatusOr<SizeExpr> product = SizeExpr::Multiply(a, b);
  EXPECT_TRUE(product.ok()) << product.status();
  return product.ok() ? *product : SizeExpr();
}

// Every dim in [lower, upper] (nullopt: unbounded above), for `count` dims.
DimBox Box(std::int64_t lower, std::optional<std::int64_t> upper, std::size_t count = 3) {
  return DimBox{std::vector<std::int64_t>(count, lower),
                std::vector<std::optional<std::int64_t>>(count, upper)};
}

std::optional<Bytes> At(const SizeExpr& e, std::int64_t n, std::int64_t m = 1,
                        std::int64_t k = 1) {
  const std::vector<std::int64_t> dims = {n, m, k};
  return e.Evaluate(dims);
}

TEST(SizeExprTest, HeaderWorkedExample) {
  const SizeExpr a = N().Scaled(4);
  const SizeExpr b = SizeExpr::AlignUp(a, 64);
  const SizeExpr c = b + C(128);
  const SizeExpr d = SizeExpr::Max(c, C(256));
  EXPECT_EQ(Text(a), "4*%n");
  EXPECT_EQ(Text(b), "align(4*%n, 64)");
  EXPECT_EQ(Text(c), "align(4*%n, 64) + 128");
  EXPECT_EQ(Text(d), "max(align(4*%n, 64) + 128, 256)");
  EXPECT_EQ(At(d, 10), 256);
  EXPECT_EQ(At(d, 100), 576);
  const DimBox box = Box(1, 4096);
  EXPECT_TRUE(C(64).ProvablyLessEqual(b, box));
  EXPECT_FALSE(b.ProvablyLessEqual(C(64), box));
}

TEST(SizeExprTest, ConstantsAndZero) {
  EXPECT_EQ(Text(SizeExpr()), "0");
  EXPECT_EQ(SizeExpr(), C(0));
  EXPECT_EQ(Text(C(4096)), "4096");
  EXPECT_EQ(C(-5), C(0));
  EXPECT_EQ(C(3) + C(4), C(7));
  EXPECT_EQ(N().Scaled(0), C(0));
  EXPECT_EQ(N().Scaled(-3), C(0));
  EXPECT_TRUE(C(9).IsConstant());
  EXPECT_EQ(C(9).ConstantValue(), 9);
  EXPECT_FALSE(N().IsConstant());
  EXPECT_EQ(N().ConstantValue(), std::nullopt);
}

TEST(SizeExprTest, EqualExpressionsCompareEqual) {
  const SizeExpr x = N().Scaled(4) + C(64);
  const SizeExpr y = C(32) + N() + C(32) + N().Scaled(3);
  EXPECT_EQ(x, y);
  EXPECT_EQ(Text(y), "4*%n + 64");
  EXPECT_FALSE(x == N().Scaled(4) + C(63));
  EXPECT_FALSE(x == SizeExpr::Max(x, M()));
}

TEST(SizeExprTest, MergesCoefficients) {
  SizeExpr x = N();
  x += M();
  x += N().Scaled(3);
  EXPECT_EQ(Text(x), "4*%n + %m");
  EXPECT_EQ(x, M() + N().Scaled(4));
  EXPECT_EQ(Text(x.Scaled(5)), "20*%n + 5*%m");
}

TEST(SizeExprTest, CanonicalAtomOrder) {
  // Monomials by degree then dims, align atoms after them, constant last.
  const SizeExpr x = C(1) + SizeExpr::AlignUp(N(), 8) + Product(N(), M()) + M() +
                     Product(N(), N()) + N() + SizeExpr::AlignUp(M(), 4);
  EXPECT_EQ(Text(x), "%n + %m + %n*%n + %n*%m + align(%m, 4) + align(%n, 8) + 1");
  const SizeExpr y = SizeExpr::AlignUp(M(), 4) + N() + Product(N(), N()) + M() +
                     Product(M(), N()) + SizeExpr::AlignUp(N(), 8) + C(1);
  EXPECT_EQ(x, y);
}

TEST(SizeExprTest, ToStringFormats) {
  EXPECT_EQ(Text(SizeExpr::Max(N().Scaled(8), C(256))), "max(8*%n, 256)");
  EXPECT_EQ(Text(SizeExpr::Max(C(256), N().Scaled(8))), "max(8*%n, 256)");
  EXPECT_EQ(Text(Product(N(), M())), "%n*%m");
  EXPECT_EQ(Text(Product(N(), M()).Scaled(3)), "3*%n*%m");
  EXPECT_EQ(Text(SizeExpr::AlignUp(N().Scaled(4), 64).Scaled(2)), "2*align(4*%n, 64)");
  EXPECT_EQ(Text(SizeExpr::Dim(2) + C(1)), "%\"a b\" + 1");
  EXPECT_EQ(Text(SizeExpr::Dim(7)), "%7");
}

TEST(SizeExprTest, AlignFoldsConstants) {
  EXPECT_EQ(SizeExpr::AlignUp(C(100), 16), C(112));
  EXPECT_EQ(SizeExpr::AlignUp(C(112), 16), C(112));
  EXPECT_EQ(SizeExpr::AlignUp(C(0), 16), C(0));
  EXPECT_EQ(SizeExpr::AlignUp(C(1), 4096), C(4096));
  const SizeExpr x = N().Scaled(4) + C(3);
  EXPECT_EQ(SizeExpr::AlignUp(x, 1), x);
  EXPECT_EQ(SizeExpr::AlignUp(x, 0), x);
  EXPECT_EQ(SizeExpr::AlignUp(x, -8), x);
}

TEST(SizeExprTest, AlignOfMultiplesIsUnchanged) {
  const SizeExpr x = N().Scaled(64) + Product(N(), M()).Scaled(128) + C(192);
  EXPECT_EQ(SizeExpr::AlignUp(x, 64), x);
  EXPECT_EQ(SizeExpr::AlignUp(x, 32), x);
  // align(S, 64) is a multiple of 16 and of 64.
  const SizeExpr b = SizeExpr::AlignUp(N(), 64);
  EXPECT_EQ(SizeExpr::AlignUp(b, 16), b);
  EXPECT_EQ(SizeExpr::AlignUp(b + C(128), 64), b + C(128));
}

TEST(SizeExprTest, AlignMovesMultiplesOutside) {
  const SizeExpr x = N().Scaled(68) + C(130);
  EXPECT_EQ(Text(SizeExpr::AlignUp(x, 64)), "64*%n + align(4*%n + 2, 64) + 128");
  EXPECT_EQ(SizeExpr::AlignUp(N().Scaled(256) + C(4), 64), N().Scaled(256) + C(64));
  EXPECT_EQ(SizeExpr::AlignUp(N().Scaled(4) + C(64), 64),
            SizeExpr::AlignUp(N().Scaled(4), 64) + C(64));
  // k*align(n, 16) is a multiple of 64 when 4 divides k; align(align(n, 16), 64) = align(n, 64).
  const SizeExpr a16 = SizeExpr::AlignUp(N(), 16);
  EXPECT_EQ(Text(SizeExpr::AlignUp(a16.Scaled(5), 64)), "4*align(%n, 16) + align(%n, 64)");
  // Nested: align(align(S, B), A) = align(S, A) when B divides A.
  EXPECT_EQ(SizeExpr::AlignUp(a16, 64), SizeExpr::AlignUp(N(), 64));
  for (std::int64_t n : {1, 15, 16, 17, 63, 64, 65, 1000}) {
    EXPECT_EQ(At(SizeExpr::AlignUp(x, 64), n), AlignUp(68 * n + 130, 64)) << n;
    EXPECT_EQ(At(SizeExpr::AlignUp(a16.Scaled(5), 64), n), AlignUp(5 * AlignUp(n, 16), 64)) << n;
  }
}

TEST(SizeExprTest, AlignDistributesOverMax) {
  const SizeExpr x = N().Scaled(4);
  const SizeExpr y = M().Scaled(8);
  EXPECT_EQ(SizeExpr::AlignUp(SizeExpr::Max(x, y), 64),
            SizeExpr::Max(SizeExpr::AlignUp(x, 64), SizeExpr::AlignUp(y, 64)));
  EXPECT_EQ(Text(SizeExpr::AlignUp(SizeExpr::Max(x, y), 64)),
            "max(align(4*%n, 64), align(8*%m, 64))");
  EXPECT_EQ(Text(SizeExpr::AlignUp(SizeExpr::Max(x + C(1), C(100)), 64)),
            "max(align(4*%n + 1, 64), 128)");
}

TEST(SizeExprTest, PlusDistributesOverMax) {
  const SizeExpr x = SizeExpr::Max(N().Scaled(4), C(256)) + C(64);
  EXPECT_EQ(x, SizeExpr::Max(N().Scaled(4) + C(64), C(320)));
  EXPECT_EQ(Text(x), "max(4*%n + 64, 320)");
  const SizeExpr y = SizeExpr::Max(N(), M()) + SizeExpr::Max(N(), C(2));
  EXPECT_EQ(Text(y), "max(%n + %m, %n + 2, 2*%n, %m + 2)");
  EXPECT_EQ(At(y, 5, 7), 12);
  EXPECT_EQ(At(y, 1, 1), 3);
}

TEST(SizeExprTest, MaxDropsDominatedTerms) {
  EXPECT_EQ(SizeExpr::Max(N().Scaled(4) + C(64), N().Scaled(2) + C(10)), N().Scaled(4) + C(64));
  EXPECT_EQ(SizeExpr::Max(N().Scaled(4), N().Scaled(4) + M()), N().Scaled(4) + M());
  EXPECT_EQ(SizeExpr::Max(C(5), C(7)), C(7));
  EXPECT_EQ(SizeExpr::Max(N(), N()), N());
  EXPECT_EQ(SizeExpr::Max(SizeExpr(), M()), M());
  // Neither dominates: both kept, in canonical order whatever the argument order.
  const SizeExpr a = N().Scaled(4);
  const SizeExpr b = N().Scaled(2) + C(10);
  EXPECT_EQ(Text(SizeExpr::Max(a, b)), "max(2*%n + 10, 4*%n)");
  EXPECT_EQ(SizeExpr::Max(a, b), SizeExpr::Max(b, a));
  EXPECT_EQ(SizeExpr::Max(SizeExpr::Max(a, b), N().Scaled(3) + C(10)),
            SizeExpr::Max(a, N().Scaled(3) + C(10)));
}

TEST(SizeExprTest, MultiplyExpandsPolynomials) {
  EXPECT_EQ(Text(Product(N() + C(2), M() + C(3))), "3*%n + 2*%m + %n*%m + 6");
  EXPECT_EQ(Text(Product(N() + C(1), N() + C(1))), "2*%n + %n*%n + 1");
  EXPECT_EQ(Product(N(), M()), Product(M(), N()));
  EXPECT_EQ(Text(Product(Product(N(), M()).Scaled(2), N().Scaled(3))), "6*%n*%n*%m");
  // A constant factor scales anything, max and align included.
  EXPECT_EQ(Product(C(2), SizeExpr::Max(N(), C(8))), SizeExpr::Max(N().Scaled(2), C(16)));
  EXPECT_EQ(Product(SizeExpr::AlignUp(N(), 64), C(3)), SizeExpr::AlignUp(N(), 64).Scaled(3));
  EXPECT_EQ(Product(C(0), SizeExpr::Max(N(), C(8))), C(0));
}

TEST(SizeExprTest, MultiplyRefusesMaxAndAlign) {
  absl::StatusOr<SizeExpr> with_max = SizeExpr::Multiply(SizeExpr::Max(N(), C(8)), M());
  ASSERT_FALSE(with_max.ok());
  EXPECT_EQ(with_max.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(with_max.status().message(),
            "cannot multiply max(%0, 8) by %1: a product with max(...) or align(...) is not "
            "supported");
  absl::StatusOr<SizeExpr> with_align =
      SizeExpr::Multiply(N(), SizeExpr::AlignUp(M(), 64) + C(1));
  ASSERT_FALSE(with_align.ok());
  EXPECT_EQ(with_align.status().message(),
            "cannot multiply %0 by align(%1, 64) + 1: a product with max(...) or align(...) is "
            "not supported");
}

TEST(SizeExprTest, Evaluate) {
  const SizeExpr x = Product(N(), M()).Scaled(2) + SizeExpr::AlignUp(N().Scaled(3), 8) + C(5);
  EXPECT_EQ(At(x, 3, 5), 30 + 16 + 5);
  EXPECT_EQ(At(SizeExpr::Max(N(), M()), 3, 5), 5);
  EXPECT_EQ(C(42).Evaluate({}), 42);
  // Too few dims for the expression.
  const std::vector<std::int64_t> one = {3};
  EXPECT_EQ(M().Evaluate(one), std::nullopt);
}

TEST(SizeExprTest, EvaluateOverflowIsNullopt) {
  const std::int64_t big = std::int64_t{1} << 32;
  EXPECT_EQ(At(Product(N(), M()), big, big), std::nullopt);
  EXPECT_EQ(At(Product(N(), M()), big, big / 4), std::int64_t{1} << 62);
  EXPECT_EQ(At(N().Scaled(std::int64_t{1} << 62), 4), std::nullopt);
  EXPECT_EQ(At(N() + M(), INT64_MAX, 1), std::nullopt);
  EXPECT_EQ(At(SizeExpr::AlignUp(N(), 64), INT64_MAX - 1), std::nullopt);
  EXPECT_EQ(At(SizeExpr::AlignUp(N(), 64), INT64_MAX - 63), INT64_MAX - 63);
}

TEST(SizeExprTest, OverflowIsSticky) {
  const SizeExpr huge = C(std::int64_t{1} << 62).Scaled(4);
  EXPECT_TRUE(huge.Overflowed());
  EXPECT_FALSE(C(std::int64_t{1} << 62).Scaled(1).Overflowed());
  EXPECT_TRUE((C(std::int64_t{1} << 62) + C(std::int64_t{1} << 62)).Overflowed());
  EXPECT_FALSE((C(std::int64_t{1} << 62) + C((std::int64_t{1} << 62) - 1)).Overflowed());
  const std::int64_t k40 = std::int64_t{1} << 40;
  EXPECT_TRUE(SizeExpr::Multiply(N().Scaled(k40), M().Scaled(k40))->Overflowed());
  EXPECT_TRUE(SizeExpr::AlignUp(C(INT64_MAX), 64).Overflowed());
  for (const SizeExpr& derived :
       {huge + C(1), SizeExpr::Max(huge, C(0)), SizeExpr::Max(C(0), huge),
        SizeExpr::AlignUp(huge, 64), huge.Scaled(0), *SizeExpr::Multiply(huge, N()),
        SizeExpr::MaxWithin(huge, N(), Box(1, 10))}) {
    EXPECT_TRUE(derived.Overflowed());
    EXPECT_EQ(derived.Evaluate(std::vector<std::int64_t>{1, 1}), std::nullopt);
  }
  EXPECT_EQ(huge.ConstantValue(), std::nullopt);
  EXPECT_FALSE(huge.ProvablyLessEqual(huge, Box(1, 10)));
  EXPECT_FALSE(C(0).ProvablyLessEqual(huge, Box(1, 10)));
  EXPECT_FALSE(huge.ProvablyLessEqual(N(), Box(1, std::nullopt)));
  EXPECT_FALSE(huge == C(INT64_MAX));
}

TEST(SizeExprTest, Dims) {
  EXPECT_TRUE(C(5).Dims().empty());
  const SizeExpr square = Product(SizeExpr::Dim(5), SizeExpr::Dim(5));
  const SizeExpr x =
      SizeExpr::Max(SizeExpr::AlignUp(square + C(1), 64), M().Scaled(3) + SizeExpr::Dim(3));
  EXPECT_EQ(x.Dims(), (std::vector<DimId>{1, 3, 5}));
  EXPECT_EQ(Product(N(), N()).Dims(), std::vector<DimId>{0});
}

TEST(SizeExprTest, ProvablyLessEqualSums) {
  const DimBox unbounded = Box(1, std::nullopt);
  EXPECT_TRUE(N().Scaled(4).ProvablyLessEqual(N().Scaled(4) + C(1), unbounded));
  EXPECT_FALSE((N().Scaled(4) + C(1)).ProvablyLessEqual(N().Scaled(4), unbounded));
  EXPECT_TRUE(N().Scaled(4).ProvablyLessEqual(N().Scaled(8), unbounded));
  EXPECT_TRUE(C(4).ProvablyLessEqual(N().Scaled(4), unbounded));  // n >= 1
  EXPECT_FALSE(C(5).ProvablyLessEqual(N().Scaled(4), unbounded));
  EXPECT_FALSE(N().Scaled(8).ProvablyLessEqual(N().Scaled(4), unbounded));
  EXPECT_TRUE(N().Scaled(8).ProvablyLessEqual(N().Scaled(4) + C(4), Box(1, 1)));
  // An atom with a negative difference needs an upper bound.
  EXPECT_FALSE(N().ProvablyLessEqual(C(100), unbounded));
  EXPECT_TRUE(N().ProvablyLessEqual(C(100), Box(1, 100)));
  EXPECT_FALSE(N().ProvablyLessEqual(C(99), Box(1, 100)));
  EXPECT_TRUE(Product(N(), M()).ProvablyLessEqual(C(4096), Box(1, 64)));
  DimBox m_unbounded = Box(1, 64);
  m_unbounded.upper[1] = std::nullopt;
  EXPECT_FALSE(Product(N(), M()).ProvablyLessEqual(C(4096), m_unbounded));
  EXPECT_TRUE(N().ProvablyLessEqual(C(64), m_unbounded));
  // A dim past the box ranges over [0, unbounded).
  EXPECT_FALSE(SizeExpr::Dim(4).ProvablyLessEqual(C(10), Box(1, 10)));
  EXPECT_TRUE(C(0).ProvablyLessEqual(SizeExpr::Dim(4), Box(1, 10)));
  EXPECT_FALSE(C(1).ProvablyLessEqual(SizeExpr::Dim(4), Box(1, 10)));
}

TEST(SizeExprTest, ProvablyLessEqualWithMax) {
  const DimBox box = Box(1, std::nullopt);
  // Max on the left: every term must be bounded.
  EXPECT_TRUE(SizeExpr::Max(N(), C(64)).ProvablyLessEqual(N() + C(64), box));
  EXPECT_FALSE(SizeExpr::Max(N(), C(128)).ProvablyLessEqual(N() + C(64), box));
  // Max on the right: one term must bound it.
  EXPECT_TRUE(N().ProvablyLessEqual(SizeExpr::Max(N(), C(64)), box));
  EXPECT_TRUE(C(64).ProvablyLessEqual(SizeExpr::Max(N(), C(64)), box));
  EXPECT_FALSE(C(100).ProvablyLessEqual(SizeExpr::Max(N(), C(64)), box));
  EXPECT_TRUE(C(100).ProvablyLessEqual(SizeExpr::Max(N(), C(64)), Box(100, std::nullopt)));
  // Both sides.
  EXPECT_TRUE(SizeExpr::Max(N(), M()).ProvablyLessEqual(SizeExpr::Max(N() + M(), C(1)), box));
  EXPECT_FALSE(SizeExpr::Max(N(), M()).ProvablyLessEqual(SizeExpr::Max(N(), C(64)), box));
}

TEST(SizeExprTest, ProvablyLessEqualThroughAlign) {
  const DimBox box = Box(1, std::nullopt);
  const SizeExpr a = SizeExpr::AlignUp(N().Scaled(4), 64);
  EXPECT_TRUE(N().Scaled(4).ProvablyLessEqual(a, box));
  EXPECT_TRUE(a.ProvablyLessEqual(N().Scaled(4) + C(63), box));
  EXPECT_FALSE(a.ProvablyLessEqual(N().Scaled(4) + C(62), box));
  EXPECT_TRUE(a.ProvablyLessEqual(a, box));
  EXPECT_TRUE(a.ProvablyLessEqual(a + C(1), box));
  EXPECT_TRUE(C(64).ProvablyLessEqual(a, box));
  EXPECT_FALSE(C(65).ProvablyLessEqual(a, box));
}

// Issue 31: an align term both sides hold is cancelled before the others are
// relaxed, so %n <= align(%n, 64) is still seen beside align(%m, 64).
TEST(SizeExprTest, ProvablyLessEqualBesideACommonAlign) {
  const DimBox box = Box(1, 100);
  const SizeExpr am = SizeExpr::AlignUp(M(), 64);
  const SizeExpr an = SizeExpr::AlignUp(N(), 64);
  EXPECT_TRUE((am + N()).ProvablyLessEqual(an + am, box));
  EXPECT_TRUE((am + N() + C(7)).ProvablyLessEqual(an + am + C(7), box));
  EXPECT_FALSE((am + N() + C(1)).ProvablyLessEqual(an + am, box));  // n = 64: 65 > 64
  EXPECT_FALSE((am.Scaled(2) + N()).ProvablyLessEqual(an + am, box));  // m = 1: 128 + n > 64 + 64
}

TEST(SizeExprTest, MaxWithinPrunesWithBox) {
  EXPECT_EQ(SizeExpr::MaxWithin(N(), C(64), Box(1, 4096)), SizeExpr::Max(N(), C(64)));
  EXPECT_EQ(SizeExpr::MaxWithin(N(), C(64), Box(100, 4096)), N());
  EXPECT_EQ(SizeExpr::MaxWithin(N(), C(64), Box(1, 16)), C(64));
  const SizeExpr a = SizeExpr::AlignUp(N().Scaled(4), 64);
  EXPECT_EQ(SizeExpr::MaxWithin(N().Scaled(4), a, Box(1, std::nullopt)), a);
  // Terms equal within the box: exactly one is kept.
  const SizeExpr one = SizeExpr::MaxWithin(N().Scaled(4), C(4), Box(1, 1));
  EXPECT_TRUE(one == N().Scaled(4) || one == C(4)) << Text(one);
}

TEST(SizeExprTest, MaxWithinCapIsAnUpperBound) {
  const DimBox box = Box(1, std::nullopt);
  const SizeExpr k = SizeExpr::Dim(2);
  const SizeExpr a = SizeExpr::Max(N() + C(10), M().Scaled(2));
  const SizeExpr b = SizeExpr::Max(k.Scaled(3) + C(5), N().Scaled(2));
  // No cap: same as Max.
  EXPECT_EQ(SizeExpr::MaxWithin(a, b, box), SizeExpr::Max(a, b));
  const SizeExpr capped = SizeExpr::MaxWithin(a, b, box, 2);
  EXPECT_EQ(Text(capped), "2*%n + 2*%m + 3*%\"a b\" + 10");
  for (std::int64_t n : {1, 2, 7, 100}) {
    for (std::int64_t m : {1, 3, 50}) {
      for (std::int64_t kv : {1, 4, 1000}) {
        const Bytes bound = *At(capped, n, m, kv);
        EXPECT_GE(bound, *At(a, n, m, kv));
        EXPECT_GE(bound, *At(b, n, m, kv));
      }
    }
  }
  // Pruning happens before the cap: 3 terms, one provably dominated.
  const SizeExpr c = SizeExpr::MaxWithin(SizeExpr::Max(N(), M()), C(1), box, 2);
  EXPECT_EQ(c, SizeExpr::Max(N(), M()));
}

// A random expression with an independent evaluator (the oracle).
struct Random {
  SizeExpr expr;
  std::function<std::int64_t(const std::vector<std::int64_t>&)> value;
};

Random RandomExpr(std::mt19937& rng, int depth) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  if (depth == 0 || pick(4) == 0) {
    if (pick(2) == 0) {
      const std::int64_t c = pick(100);
      return {C(c), [c](const auto&) { return c; }};
    }
    const DimId d = pick(3);
    return {SizeExpr::Dim(d), [d](const auto& x) { return x[static_cast<std::size_t>(d)]; }};
  }
  Random a = RandomExpr(rng, depth - 1);
  Random b = RandomExpr(rng, depth - 1);
  switch (pick(5)) {
    case 0:
      return {a.expr + b.expr, [a, b](const auto& x) { return a.value(x) + b.value(x); }};
    case 1: {
      const std::int64_t k = pick(6);
      return {a.expr.Scaled(k), [a, k](const auto& x) { return k * a.value(x); }};
    }
    case 2:
      return {SizeExpr::Max(a.expr, b.expr),
              [a, b](const auto& x) { return std::max(a.value(x), b.value(x)); }};
    case 3: {
      const std::int64_t alignment = std::vector<std::int64_t>{2, 3, 4, 6, 8, 16, 64}[pick(7)];
      return {SizeExpr::AlignUp(a.expr, alignment),
              [a, alignment](const auto& x) { return AlignUp(a.value(x), alignment); }};
    }
    default: {
      absl::StatusOr<SizeExpr> product = SizeExpr::Multiply(a.expr, b.expr);
      if (!product.ok()) return a;
      return {*product, [a, b](const auto& x) { return a.value(x) * b.value(x); }};
    }
  }
}

TEST(SizeExprTest, RandomExpressionsAgreeWithDirectEvaluation) {
  std::mt19937 rng(12345);
  const DimBox box = Box(1, 12);
  std::vector<std::vector<std::int64_t>> points;
  for (std::int64_t n : {1, 2, 5, 12}) {
    for (std::int64_t m : {1, 7, 12}) {
      for (std::int64_t k : {1, 3, 12}) points.push_back({n, m, k});
    }
  }
  int proven = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Random a = RandomExpr(rng, 3);
    const Random b = RandomExpr(rng, 3);
    const bool a_le_b = a.expr.ProvablyLessEqual(b.expr, box);
    proven += a_le_b;
    const SizeExpr within = SizeExpr::MaxWithin(a.expr, b.expr, box);
    const SizeExpr capped = SizeExpr::MaxWithin(a.expr, b.expr, box, 1);
    const std::string what = Text(a.expr) + " vs " + Text(b.expr);
    for (const auto& x : points) {
      const std::int64_t va = a.value(x);
      const std::int64_t vb = b.value(x);
      ASSERT_EQ(a.expr.Evaluate(x), va) << Text(a.expr);
      if (a_le_b) {
        ASSERT_LE(va, vb) << what;
      }
      ASSERT_EQ(within.Evaluate(x), std::max(va, vb)) << what << " -> " << Text(within);
      ASSERT_GE(*capped.Evaluate(x), std::max(va, vb)) << what << " -> " << Text(capped);
    }
    // Normal forms do not depend on the order of construction.
    ASSERT_EQ(a.expr + b.expr, b.expr + a.expr) << what;
    ASSERT_EQ(SizeExpr::Max(a.expr, b.expr), SizeExpr::Max(b.expr, a.expr)) << what;
  }
  EXPECT_GT(proven, 20);
}

}  // namespace
}  // namespace memplan
