// Rule 11 of verify/verifier.h: results that gather operands. Each test
// breaks the buffer set of examples/concat_views.mpir the way a planner that
// ignored the gathers would, and the verifier says what is wrong.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "tests/ir/parse_ok.h"
#include "verify/checks.h"

namespace memplan {
namespace {

using verify_internal::CheckGathers;

Buffer Make(const Program& p, const std::string& name, Bytes size, TimeStep start, TimeStep end,
            const std::vector<std::string>& values) {
  Buffer b;
  b.name = name;
  b.size = size;
  b.start = start;
  b.end = end;
  for (const std::string& v : values) b.values.push_back(p.FindValue(v));
  return b;
}

const char* const kConcat = R"(
  entry func @main(%x: f32[1,1024]) {
    %a = exp(%x) : f32[1,1024]                                          # 0
    %b = negate(%x) : f32[1,1024]                                       # 1
    %c = concatenate(%a, %b) : f32[1,2048] gathers(%a, 0, %b, 4096)     # 2
    %y = logistic(%c) : f32[1,2048]                                     # 3
    return %y
  })";

class GatherChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = ParseOk(kConcat);
    ASSERT_NE(program_.entry, kNoId);
    set_.time_steps = 4;
    set_.buffers = {Make(program_, "x", 4096, 0, 1, {"x"}),
                    Make(program_, "a", 8192, 0, 3, {"a", "b", "c"}),
                    Make(program_, "y", 8192, 3, 3, {"y"})};
  }
  Program program_;
  BufferSet set_;
};

TEST_F(GatherChecksTest, TheAnalysedBufferSetPasses) {
  EXPECT_TRUE(CheckGathers(set_, program_).ok());
}

// Reserved only from the concat: %a's producer writes before the bytes exist.
TEST_F(GatherChecksTest, BufferStartingAtTheConcatIsRefused) {
  set_.buffers[1].start = 2;
  EXPECT_EQ(CheckGathers(set_, program_).message(),
            "buffer 'a' (id 1) has live range [2, 3], but %c at time 2 gathers data that %a "
            "holds from time 0: the buffer must be live from then to the gather");
}

// %b planned as storage of its own: its producer would write elsewhere.
TEST_F(GatherChecksTest, OperandInAnotherBufferIsRefused) {
  set_.buffers[1].values = {program_.FindValue("a"), program_.FindValue("c")};
  set_.buffers.push_back(Make(program_, "b", 4096, 1, 2, {"b"}));
  EXPECT_EQ(CheckGathers(set_, program_).message(),
            "%c gathers %b at offset 4096, but buffer 'a' (id 1) does not hold %b: its producer "
            "would write outside the result");
}

// A buffer that also holds a value live while the producers write.
TEST_F(GatherChecksTest, ForeignValueLiveDuringTheWritesIsRefused) {
  set_.buffers[1].values.push_back(program_.FindValue("x"));
  set_.buffers.erase(set_.buffers.begin());
  EXPECT_EQ(CheckGathers(set_, program_).message(),
            "buffer 'a' (id 0): %x holds data in it at time 0, while the operands %c gathers at "
            "time 2 are being written there (from time 0)");
}

// A program built in code may gather overlapping slices; the verifier
// checks the slices itself.
TEST_F(GatherChecksTest, OverlappingSlicesAreRefused) {
  program_.values[program_.FindValue("c")].gathers[1].offset = 2048;
  EXPECT_EQ(CheckGathers(set_, program_).message(),
            "%c gathers %a and %b into overlapping bytes (2048 < 4096)");
}

// Views and ties of a gathered operand hold the same data: no conflict.
TEST(GatherChecks, ViewsOfAnOperandAreItsFamily) {
  const Program p = ParseOk(R"(
    entry func @main(%x: 8) {
      %t = exp(%x) : 8                                     # 0
      %a = relu(%t) : 8 tied(%t)                           # 1
      %w = reshape(%a) : 8 view(%a, 0)                     # 2
      %u = negate(%w) : 8                                  # 3
      %b = exp(%x) : 8                                     # 4
      %c = concatenate(%a, %b) : 16 gathers(%a, 0, %b, 8)  # 5
      return %c, %u
    })");
  ASSERT_NE(p.entry, kNoId);
  BufferSet set;
  set.time_steps = 6;
  set.buffers = {Make(p, "x", 8, 0, 4, {"x"}), Make(p, "t", 16, 0, 5, {"t", "a", "w", "b", "c"}),
                 Make(p, "u", 8, 3, 5, {"u"})};
  EXPECT_TRUE(CheckGathers(set, p).ok());
}

// A gathered operand that is a piece of a larger value: the other piece of
// that value lies on the other operand's slice and is read after that
// operand is written, so the buffer holds two data in one place.
TEST(GatherChecks, PieceOfALargerValueIsNotItsFamily) {
  const Program p = ParseOk(R"(
    entry func @main(%x: 8) {
      %w = exp(%x) : 8                                     # 0
      %a = slice(%w) : 4 view(%w, 0)                       # 1
      %a2 = slice(%w) : 4 view(%w, 4)                      # 2
      %b = exp(%x) : 4                                     # 3
      %u = negate(%a2) : 4                                 # 4
      %c = concatenate(%a, %b) : 8 gathers(%a, 0, %b, 4)   # 5
      return %c, %u
    })");
  ASSERT_NE(p.entry, kNoId);
  BufferSet set;
  set.time_steps = 6;
  set.buffers = {Make(p, "x", 8, 0, 3, {"x"}), Make(p, "w", 8, 0, 5, {"w", "a", "a2", "b", "c"}),
                 Make(p, "u", 4, 4, 5, {"u"})};
  EXPECT_EQ(CheckGathers(set, p).message(),
            "buffer 'w' (id 1): %w holds data in it at time 1, while the operands %c gathers at "
            "time 5 are being written there (from time 1)");
}

}  // namespace
}  // namespace memplan
