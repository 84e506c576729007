#include "ir/plural.h"

#include <cstdint>
#include <cstddef>

#include "gtest/gtest.h"

namespace memplan {
namespace {

TEST(PluralTest, SingularOnlyForOne) {
  EXPECT_EQ(CountOf(1, "byte"), "1 byte");
  EXPECT_EQ(CountOf(0, "byte"), "0 bytes");
  EXPECT_EQ(CountOf(2, "time step"), "2 time steps");
  EXPECT_EQ(CountOf(-1, "byte"), "-1 bytes");
  EXPECT_EQ(CountOf(std::int64_t{1} << 40, "byte"), "1099511627776 bytes");
  EXPECT_EQ(CountOf(std::size_t{1}, "buffer"), "1 buffer");
}

TEST(PluralTest, IrregularPlurals) {
  EXPECT_EQ(CountOf(1, "async copy", "async copies"), "1 async copy");
  EXPECT_EQ(CountOf(3, "async copy", "async copies"), "3 async copies");
  EXPECT_EQ(CountOf(2, "prefetch", "prefetches"), "2 prefetches");
  EXPECT_EQ(NounFor(1, "byte"), "byte");
  EXPECT_EQ(NounFor(7, "byte"), "bytes");
  EXPECT_EQ(NounFor(0, "copy", "copies"), "copies");
}

}  // namespace
}  // namespace memplan
