#include "ir/text_syntax.h"

#include "gtest/gtest.h"

namespace memplan {
namespace {

TEST(TextSyntaxTest, Identifiers) {
  EXPECT_TRUE(IsIdentifier("copy-start"));
  EXPECT_TRUE(IsIdentifier("onnx.Conv"));
  EXPECT_TRUE(IsIdentifier("_x9"));
  EXPECT_FALSE(IsIdentifier(""));
  EXPECT_FALSE(IsIdentifier("9x"));
  EXPECT_FALSE(IsIdentifier("a b"));
  EXPECT_FALSE(IsIdentifier("a$"));
}

TEST(TextSyntaxTest, PlainNames) {
  EXPECT_TRUE(IsPlainName("conv/out:0"));
  EXPECT_TRUE(IsPlainName("0"));
  EXPECT_TRUE(IsPlainName("a$b.c-d_e"));
  EXPECT_FALSE(IsPlainName(""));
  EXPECT_FALSE(IsPlainName("a:"));   // would read as name `a` then ':'
  EXPECT_FALSE(IsPlainName("a b"));
  EXPECT_FALSE(IsPlainName("caf\xC3\xA9"));
}

TEST(TextSyntaxTest, SigilNameQuotesOnlyWhenNeeded) {
  EXPECT_EQ(SigilName('%', "conv/out:0"), "%conv/out:0");
  EXPECT_EQ(SigilName('@', "main"), "@main");
  EXPECT_EQ(SigilName('%', "a b"), "%\"a b\"");
  EXPECT_EQ(SigilName('%', "x:"), "%\"x:\"");
  EXPECT_EQ(SigilName('%', "say \"hi\"\\"), "%\"say \\\"hi\\\"\\\\\"");
  EXPECT_EQ(SigilName('%', "l1\nl2\tx\x01\x7F"), "%\"l1\\nl2\\tx\\x01\\x7F\"");
  EXPECT_EQ(SigilName('%', "caf\xC3\xA9"), "%\"caf\xC3\xA9\"");
}

TEST(TextSyntaxTest, FirstInvalidUtf8) {
  EXPECT_EQ(FirstInvalidUtf8("plain ascii"), std::nullopt);
  EXPECT_EQ(FirstInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), std::nullopt);
  EXPECT_EQ(FirstInvalidUtf8("ab\xFF"), 2u);
  EXPECT_EQ(FirstInvalidUtf8("a\x80"), 1u);              // stray continuation byte
  EXPECT_EQ(FirstInvalidUtf8("ab\xC3"), 2u);             // truncated sequence
  EXPECT_EQ(FirstInvalidUtf8("x\xE2\x82" "A"), 1u);      // sequence cut short by 'A'
  EXPECT_EQ(FirstInvalidUtf8("\xC0\xAF"), 0u);           // overlong '/'
  EXPECT_EQ(FirstInvalidUtf8("\xE0\x80\xAF"), 0u);       // overlong
  EXPECT_EQ(FirstInvalidUtf8("\xED\xA0\x80"), 0u);       // surrogate U+D800
  EXPECT_EQ(FirstInvalidUtf8("\xF4\x90\x80\x80"), 0u);   // above U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8("\xF4\x8F\xBF\xBF"), std::nullopt);  // U+10FFFF
}

}  // namespace
}  // namespace memplan
