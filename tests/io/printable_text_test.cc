// Error messages stay on one line whatever bytes a file or name holds.
#include "io/printable_text.h"

#include <string>

#include "gtest/gtest.h"

namespace memplan {
namespace {

TEST(PrintableTextTest, EscapesControlBytesAndInvalidUtf8) {
  EXPECT_EQ(PrintableText("plain text, 100% ok"), "plain text, 100% ok");
  EXPECT_EQ(PrintableText("a\nb\xff"), "a\\nb\\xff");
  EXPECT_EQ(PrintableText(std::string("t\tx\0y\x7f\r", 7)), "t\\tx\\x00y\\x7f\\x0d");
  // Valid UTF-8 stays: a name in Greek, an emoji.
  EXPECT_EQ(PrintableText("\xce\xb1\xce\xb2 \xf0\x9f\x98\x80"), "\xce\xb1\xce\xb2 \xf0\x9f\x98\x80");
  // Overlong, surrogate, truncated and above-U+10FFFF sequences are escaped byte by byte.
  EXPECT_EQ(PrintableText("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(PrintableText("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(PrintableText("\xe2\x82"), "\\xe2\\x82");
  EXPECT_EQ(PrintableText("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(PrintableText(""), "");
}

}  // namespace
}  // namespace memplan
