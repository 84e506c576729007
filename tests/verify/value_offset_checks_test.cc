// Rule 14 of verify/verifier.h: every value's address (its buffer's segment
// offset plus Plan::value_offsets) follows the program: a view at its
// source's plus the view offset, a tied result at its operand's, a gathered
// operand at the result's plus its offset, each inside its buffer.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "tests/ir/parse_ok.h"
#include "verify/checks.h"

namespace memplan {
namespace {

using verify_internal::CheckValueOffsets;

const char* const kViews = R"(
  entry func @main(%x: f32[1,1024]) {
    %a = exp(%x) : f32[1,1024]
    %b = negate(%x) : f32[1,1024]
    %c = concatenate(%a, %b) : f32[1,2048] gathers(%a, 0, %b, 4096)
    %s = slice(%c) : f32[1,512] view(%c, 6144)
    %t = tanh(%s) : f32[1,512] tied(%s)
    %y = logistic(%t) : f32[1,512]
    return %y
  })";

class ValueOffsetChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = ParseOk(kViews);
    ASSERT_NE(program_.entry, kNoId);
    const auto buffer = [&](const std::string& name, Bytes size,
                            const std::vector<std::string>& values) {
      Buffer b;
      b.name = name;
      b.size = size;
      for (const std::string& v : values) b.values.push_back(program_.FindValue(v));
      return b;
    };
    set_.buffers = {buffer("x", 4096, {"x"}), buffer("a", 8192, {"a", "b", "c", "s", "t"}),
                    buffer("y", 2048, {"y"})};
    plan_.value_offsets.assign(program_.values.size(), 0);
    Set("b", 4096);
    Set("s", 6144);
    Set("t", 6144);
  }
  void Set(const std::string& value, Bytes offset) {
    plan_.value_offsets[program_.FindValue(value)] = offset;
  }
  Program program_;
  BufferSet set_;
  Plan plan_;
};

TEST_F(ValueOffsetChecksTest, TheProgramsAddressesPass) {
  EXPECT_TRUE(CheckValueOffsets(set_, plan_, program_).ok());
}

TEST_F(ValueOffsetChecksTest, AViewAwayFromItsSourceIsRefused) {
  Set("s", 6000);
  Set("t", 6000);
  EXPECT_EQ(CheckValueOffsets(set_, plan_, program_).message(),
            "%s is a view of %c at +6144 bytes, so its address must be %c's (byte 0 of buffer 'a') "
            "+ 6144 = 6144, but the plan puts it at byte 6000");
}

TEST_F(ValueOffsetChecksTest, ATiedResultAwayFromItsOperandIsRefused) {
  Set("t", 0);
  EXPECT_EQ(CheckValueOffsets(set_, plan_, program_).message(),
            "%t is tied to %s at +0 bytes, so its address must be %s's (byte 6144 of buffer 'a') "
            "+ 0 = 6144, but the plan puts it at byte 0");
}

TEST_F(ValueOffsetChecksTest, AGatheredOperandAwayFromItsSliceIsRefused) {
  Set("b", 0);
  EXPECT_EQ(CheckValueOffsets(set_, plan_, program_).message(),
            "%b is gathered into %c at +4096 bytes, so its address must be %c's (byte 0 of buffer "
            "'a') + 4096 = 4096, but the plan puts it at byte 0");
}

TEST_F(ValueOffsetChecksTest, AValuePastItsBufferIsRefused) {
  Set("y", 4);
  EXPECT_EQ(CheckValueOffsets(set_, plan_, program_).message(),
            "%y (2048 bytes) at byte 4 of its buffer 'y' (2048 bytes) lies outside it");
}

TEST_F(ValueOffsetChecksTest, APlanWithoutAddressesStatesNothingToCheck) {
  plan_.value_offsets.clear();
  EXPECT_TRUE(CheckValueOffsets(set_, plan_, program_).ok());
}

}  // namespace
}  // namespace memplan
