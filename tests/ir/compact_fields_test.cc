// The one-word field types of per-buffer records (ir/compact_vector.h,
// ir/compact_optional.h, ir/buffer_name.h) behave as the std:: types they
// replace.
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "ir/buffer_name.h"
#include "ir/buffer_set.h"
#include "ir/compact_optional.h"
#include "ir/compact_vector.h"

namespace memplan {
namespace {

TEST(CompactVectorTest, ActsAsAVector) {
  static_assert(sizeof(CompactVector<StepRange>) == sizeof(void*));
  CompactVector<int> v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.begin(), v.end());
  for (int i = 0; i < 100; ++i) v.push_back(i);
  ASSERT_EQ(v.size(), 100u);
  EXPECT_EQ(v.front(), 0);
  EXPECT_EQ(v.back(), 99);
  EXPECT_EQ(v[42], 42);
  v.erase(v.begin() + 10, v.begin() + 90);
  EXPECT_EQ(std::vector<int>(v), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 90, 91, 92, 93,
                                                   94, 95, 96, 97, 98, 99}));
  v.insert(v.begin() + 1, {7, 8});
  EXPECT_EQ(v[1], 7);
  EXPECT_EQ(v[2], 8);
  EXPECT_EQ(v[3], 1);
  // Inserting its own elements while it grows.
  CompactVector<int> w = {1, 2, 3};
  w.insert(w.end(), w.begin(), w.end());
  w.push_back(w[0]);
  EXPECT_EQ(w, (std::vector<int>{1, 2, 3, 1, 2, 3, 1}));
  w.resize(2);
  EXPECT_EQ(w, (std::vector<int>{1, 2}));
  w.resize(4, 9);
  EXPECT_EQ(w, (std::vector<int>{1, 2, 9, 9}));
  w.pop_back();
  w.erase(w.begin());
  EXPECT_EQ(w, (std::vector<int>{2, 9}));
  w.clear();
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(w.emplace_back(5), 5);
  EXPECT_THROW(w.at(1), std::out_of_range);
}

TEST(CompactVectorTest, CopiesAndMoves) {
  CompactVector<StepRange> a = {{1, 2}, {4, 5}};
  CompactVector<StepRange> b = a;
  b.push_back({7, 8});
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(b.size(), 3u);
  CompactVector<StepRange> c = std::move(b);
  EXPECT_TRUE(b.empty());  // NOLINT: moved-from is empty by contract
  EXPECT_EQ(c.size(), 3u);
  a = c;
  EXPECT_EQ(a, c);
  a = a;  // self-assignment keeps it
  EXPECT_EQ(a.size(), 3u);
  const std::vector<StepRange> as_vector = {{1, 1}};
  c = as_vector;
  EXPECT_EQ(c, as_vector);
  c.shrink_to_fit();
  EXPECT_EQ(c.capacity(), 1u);
  c.clear();
  c.shrink_to_fit();
  EXPECT_EQ(c.capacity(), 0u);
  const std::span<const StepRange> view = a;
  EXPECT_EQ(view.size(), 3u);
}

TEST(CompactOptionalTest, ActsAsAnOptional) {
  static_assert(sizeof(CompactOptional<Bytes>) == sizeof(Bytes));
  CompactOptional<Bytes> o;
  EXPECT_FALSE(o.has_value());
  EXPECT_FALSE(o);
  EXPECT_EQ(o, std::nullopt);
  EXPECT_EQ(o.value_or(3), 3);
  EXPECT_THROW(o.value(), std::bad_optional_access);
  o = 0;
  EXPECT_TRUE(o);
  EXPECT_EQ(o, 0);
  EXPECT_NE(o, std::nullopt);
  *o += 64;
  EXPECT_EQ(*o, 64);
  EXPECT_EQ(std::optional<Bytes>(o), std::optional<Bytes>(64));
  EXPECT_EQ(o, std::optional<Bytes>(64));
  EXPECT_LT(CompactOptional<Bytes>(), o);  // empty first, as std::optional
  o.reset();
  EXPECT_EQ(o, CompactOptional<Bytes>(std::optional<Bytes>()));
  CompactOptional<MemorySpace> space = kAlternateSpace;
  EXPECT_EQ(space.value_or(kDefaultSpace), kAlternateSpace);
}

TEST(BoxedOptionalTest, ActsAsAnOptional) {
  BoxedOptional<SubAllocation> o;
  EXPECT_FALSE(o);
  EXPECT_EQ(o, std::nullopt);
  o = SubAllocation{3, 16};
  ASSERT_TRUE(o);
  EXPECT_EQ(o->container, 3);
  BoxedOptional<SubAllocation> copy = o;
  copy->offset = 32;
  EXPECT_EQ(o->offset, 16);  // a deep copy
  EXPECT_NE(o, copy);
  copy = o;
  EXPECT_EQ(o, copy);
  EXPECT_EQ(std::optional<SubAllocation>(o), (SubAllocation{3, 16}));
  o = std::nullopt;
  EXPECT_FALSE(o.has_value());
  EXPECT_EQ(o.value_or(SubAllocation{1, 2}), (SubAllocation{1, 2}));
}

TEST(BufferNameTest, InlineAndHeapNames) {
  static_assert(sizeof(BufferName) == 8);
  for (const std::string& text : std::vector<std::string>{
           "", "0", "9999999", "1234567", "12345678", "a longer name than seven bytes",
           std::string("a\0b", 3), std::string(300, 'x')}) {
    const BufferName name = text;
    EXPECT_EQ(name.view(), text);
    EXPECT_EQ(name.size(), text.size());
    EXPECT_EQ(name.empty(), text.empty());
    EXPECT_EQ(name.str(), text);
    BufferName copy = name;
    EXPECT_EQ(copy, name);
    BufferName moved = std::move(copy);
    EXPECT_EQ(moved, text);
    EXPECT_TRUE(copy.empty());  // NOLINT: moved-from is empty by contract
    copy = moved;
    copy = copy;  // self-assignment keeps it
    EXPECT_EQ(copy, text);
    copy = "other";
    EXPECT_EQ(copy, "other");
    EXPECT_EQ(fmt::format("<{}>", name), "<" + text + ">");
    std::ostringstream out;
    out << name;
    EXPECT_EQ(out.str(), text);
  }
  const BufferName a = "abc", b = "abd";
  EXPECT_LT(a, b);
  EXPECT_EQ(a + "!", "abc!");
  EXPECT_EQ("!" + a, "!abc");
  EXPECT_EQ(std::string("x") + a, "xabc");
  EXPECT_EQ(a, std::string("abc"));
  EXPECT_EQ(std::string_view("abc"), a);
}

}  // namespace
}  // namespace memplan
