#include "report/map/format.h"

#include <gtest/gtest.h>

namespace memplan::memmap {
namespace {

TEST(MapFormatTest, FormatBytesUsesBinaryUnitsWithTwoDecimals) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1024), "1 KiB");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(1 << 20), "1 MiB");
  EXPECT_EQ(FormatBytes(3 * (Bytes{1} << 30) / 4 * 3), "2.25 GiB");
  EXPECT_EQ(FormatBytes(1000000), "976.56 KiB");
  EXPECT_EQ(FormatBytes(-2048), "-2 KiB");
  // Up to EiB, as the summary's units: a 2^62-byte buffer is not "4194304 TiB".
  EXPECT_EQ(FormatBytes(Bytes{3} << 50), "3 PiB");
  EXPECT_EQ(FormatBytes(Bytes{1} << 62), "4 EiB");
}

// Tooltips and tables give the exact count beside the rounded one, but not
// "12 B (12 B)" or "offset 12 (12 B)".
TEST(MapFormatTest, ExactCountsOnlyWhereTheyAddSomething) {
  EXPECT_EQ(FormatBytesExact(0), "0 B");
  EXPECT_EQ(FormatBytesExact(12), "12 B");
  EXPECT_EQ(FormatBytesExact(1023), "1023 B");
  EXPECT_EQ(FormatBytesExact(1024), "1 KiB (1024 B)");
  EXPECT_EQ(FormatBytesExact(1 << 20), "1 MiB (1048576 B)");
  EXPECT_EQ(FormatOffset(0), "0");
  EXPECT_EQ(FormatOffset(12), "12");
  EXPECT_EQ(FormatOffset(1536), "1536 (1.5 KiB)");
}

TEST(MapFormatTest, ExtentAndBoundThatWouldReadTheSameAreExact) {
  // A.1048576.csv at default effort: 0.1 % over, both "1 MiB" when rounded.
  EXPECT_EQ(FormatExtentAndBound(1049600, 1048576),
            std::make_pair(std::string("1049600 B"), std::string("1048576 B")));
  EXPECT_EQ(FormatExtentAndBound(1536, 1024), std::make_pair(std::string("1.5 KiB"), std::string("1 KiB")));
  EXPECT_EQ(FormatExtentAndBound(1 << 20, 1 << 20), std::make_pair(std::string("1 MiB"), std::string("1 MiB")));
}

TEST(MapFormatTest, FormatBytesInKeepsTheAxisUnit) {
  EXPECT_EQ(FormatBytesIn(0, 1 << 20), "0");
  EXPECT_EQ(FormatBytesIn(524288, 1 << 20), "0.5 MiB");
  EXPECT_EQ(FormatBytesIn(2048, 1 << 20), "0 MiB");
  EXPECT_EQ(FormatBytesIn(300, 1), "300 B");
  EXPECT_EQ(FormatBytesIn(300, 7), "300 B");  // not a binary unit: bytes
}

TEST(MapFormatTest, FormatCoordTrimsAndNeverPrintsNegativeZero) {
  EXPECT_EQ(FormatCoord(12.5), "12.5");
  EXPECT_EQ(FormatCoord(3.0), "3");
  EXPECT_EQ(FormatCoord(0.004), "0");
  EXPECT_EQ(FormatCoord(-0.004), "0");
  EXPECT_EQ(FormatCoord(-1.256), "-1.26");
  EXPECT_EQ(FormatCoord(100.0), "100");
}

TEST(MapFormatTest, FormatPercentOver) {
  EXPECT_EQ(FormatPercentOver(110, 100), "10.0 %");
  EXPECT_EQ(FormatPercentOver(100, 100), "0.0 %");
  // A nonzero gap below 0.05 % does not read as none.
  EXPECT_EQ(FormatPercentOver(1048600, 1048576), "<0.1 %");
  EXPECT_EQ(FormatPercentOver(100049, 100000), "<0.1 %");
  EXPECT_EQ(FormatPercentOver(100051, 100000), "0.1 %");
  EXPECT_EQ(FormatPercentOver(5, 0), "n/a");
}

TEST(MapFormatTest, XmlEscapeEscapesMarkupAndRepairsText) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(XmlEscape("caf\xC3\xA9"), "caf\xC3\xA9");
  // A lone continuation byte, a truncated sequence and a control character.
  EXPECT_EQ(XmlEscape("x\x80y"), "x\xEF\xBF\xBDy");
  EXPECT_EQ(XmlEscape("z\xE2\x82"), "z\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(XmlEscape(std::string_view("a\0b\x01", 4)), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD");
  EXPECT_EQ(XmlEscape("tab\there"), "tab\there");
  // Overlong encoding of '/' is rejected.
  EXPECT_EQ(XmlEscape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(MapFormatTest, JsonStringIsSafeInsideScript) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("</script><b>&"), "\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026\"");
  EXPECT_EQ(JsonString("q\"b\\n\n"), "\"q\\\"b\\\\n\\n\"");
  EXPECT_EQ(JsonString("\x01"), "\"\\u0001\"");
  EXPECT_EQ(JsonString("\xE2\x80\xA8"), "\"\\u2028\"");
  EXPECT_EQ(JsonString("\xFF"), "\"\xEF\xBF\xBD\"");
}

}  // namespace
}  // namespace memplan::memmap
