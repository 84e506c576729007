// JSON pointers resolved to line:column in a document's text.
#include "io/json_locate.h"

#include <string>

#include "gtest/gtest.h"

namespace memplan {
namespace {

std::string At(std::string_view text, std::string_view pointer) {
  const SourceLocation loc = JsonPointerLocation(text, pointer);
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

TEST(JsonLocateTest, FindsValuesByPointer) {
  const std::string text = "{\n  \"a\": [1, 22],\n  \"b\": {\"c\": \"x\", \"d/e\": {\"f\": null}}\n}";
  EXPECT_EQ(At(text, ""), "1:1");
  EXPECT_EQ(At(text, "/a"), "2:8");
  EXPECT_EQ(At(text, "/a/0"), "2:9");
  EXPECT_EQ(At(text, "/a/1"), "2:12");
  EXPECT_EQ(At(text, "/b/c"), "3:14");
  EXPECT_EQ(At(text, "/b/d~1e"), "3:26");
  EXPECT_EQ(At(text, "/b/d~1e/f"), "3:32");
}

TEST(JsonLocateTest, MissingPartsGiveTheDeepestValueFound) {
  const std::string text = "{\"a\": [{\"x\": 1}], \"b\": 2}";
  EXPECT_EQ(At(text, "/a/0/nope"), "1:8");
  EXPECT_EQ(At(text, "/a/5"), "1:7");
  EXPECT_EQ(At(text, "/a/x"), "1:7");
  EXPECT_EQ(At(text, "/zz/0"), "1:1");
}

TEST(JsonLocateTest, SkipsStringsWithBracketsAndEscapes) {
  const std::string text = "{\"s\": \"]}\\\"{[\", \"k\\u0041\": [[], {\"t\": [1]}], \"z\": true}";
  EXPECT_EQ(At(text, "/kA/1/t/0"), "1:40");
  EXPECT_EQ(At(text, "/z"), "1:51");
}

TEST(JsonLocateTest, DeepNestingDoesNotRecurse) {
  std::string text = "{\"deep\": " + std::string(100000, '[') + std::string(100000, ']') + ", \"after\": 7}";
  EXPECT_EQ(At(text, "/after"), "1:" + std::to_string(text.size() - 1));
}

TEST(JsonLocateTest, TextLocationCountsLinesAndBytes) {
  const SourceLocation loc = TextLocation("ab\ncd\nef", 7);
  EXPECT_EQ(loc.line, 3);
  EXPECT_EQ(loc.column, 2);
  EXPECT_EQ(TextLocation("ab", 99).column, 3);
}

TEST(JsonLocateTest, LineIndexAgreesWithTextLocationEverywhere) {
  for (const std::string_view text : {"", "\n", "ab\ncd\nef", "\n\nx\n", "abc"}) {
    const LineIndex lines(text);
    for (std::size_t i = 0; i <= text.size() + 2; ++i) {
      const SourceLocation want = TextLocation(text, i);
      const SourceLocation got = lines.Locate(i);
      EXPECT_EQ(got.line, want.line) << "'" << text << "' at " << i;
      EXPECT_EQ(got.column, want.column) << "'" << text << "' at " << i;
    }
  }
  const SourceLocation loc = LineIndex("ab\ncd\nef").Locate(7);
  EXPECT_EQ(loc.line, 3);
  EXPECT_EQ(loc.column, 2);
}

}  // namespace
}  // namespace memplan
