#include "io/byte_size.h"

#include <string>

#include "gtest/gtest.h"

namespace memplan {
namespace {

Bytes Parse(std::string_view text) {
  absl::StatusOr<Bytes> v = ParseByteSize(text);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : -1;
}

std::string Error(std::string_view text) {
  absl::StatusOr<Bytes> v = ParseByteSize(text);
  EXPECT_FALSE(v.ok()) << text;
  if (v.ok()) return "";
  EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(v.status().message());
}

TEST(ByteSizeTest, PlainNumbers) {
  EXPECT_EQ(Parse("0"), 0);
  EXPECT_EQ(Parse("1048576"), 1048576);
  EXPECT_EQ(Parse("64B"), 64);
  EXPECT_EQ(Parse("9223372036854775807"), INT64_MAX);
}

TEST(ByteSizeTest, BinaryUnits) {
  EXPECT_EQ(Parse("1KiB"), 1024);
  EXPECT_EQ(Parse("512KiB"), 524288);
  EXPECT_EQ(Parse("1MiB"), 1048576);
  EXPECT_EQ(Parse("2GiB"), 2147483648);
  EXPECT_EQ(Parse("3TiB"), 3298534883328);
}

TEST(ByteSizeTest, DecimalUnits) {
  EXPECT_EQ(Parse("1KB"), 1000);
  EXPECT_EQ(Parse("1MB"), 1000000);
  EXPECT_EQ(Parse("1GB"), 1000000000);
  EXPECT_EQ(Parse("2TB"), 2000000000000);
}

TEST(ByteSizeTest, FractionsThatAreWholeBytes) {
  EXPECT_EQ(Parse("1.5MiB"), 1572864);
  EXPECT_EQ(Parse("0.5KiB"), 512);
  EXPECT_EQ(Parse("1.25KB"), 1250);
  EXPECT_EQ(Parse("2.000B"), 2);
  EXPECT_EQ(Parse("0.0009765625KiB"), 1);
}

TEST(ByteSizeTest, Errors) {
  EXPECT_EQ(Error(""),
            "invalid byte size '': expected a number of bytes such as 1048576, 512KiB or 1.5MiB");
  EXPECT_EQ(Error("-5"), "invalid byte size '-5': must not be negative");
  EXPECT_EQ(Error("abc"),
            "invalid byte size 'abc': expected a number of bytes such as 1048576, 512KiB or "
            "1.5MiB");
  EXPECT_EQ(Error("1."),
            "invalid byte size '1.': expected a number of bytes such as 1048576, 512KiB or "
            "1.5MiB");
  EXPECT_EQ(Error("1mib"),
            "invalid byte size '1mib': unknown unit 'mib' (use B, KiB, MiB, GiB, TiB, KB, MB, GB "
            "or TB)");
  EXPECT_EQ(Error("1 MiB"),
            "invalid byte size '1 MiB': unknown unit ' MiB' (use B, KiB, MiB, GiB, TiB, KB, MB, "
            "GB or TB)");
  EXPECT_EQ(Error("1.3B"), "invalid byte size '1.3B': not a whole number of bytes");
  EXPECT_EQ(Error("0.1KiB"), "invalid byte size '0.1KiB': not a whole number of bytes");
  EXPECT_EQ(Error("9223372036854775808"),
            "invalid byte size '9223372036854775808': too large (at most 2^63 - 1 bytes)");
  EXPECT_EQ(Error("8388608TiB"),
            "invalid byte size '8388608TiB': too large (at most 2^63 - 1 bytes)");
  EXPECT_EQ(Error("99999999999999999999999999MiB"),
            "invalid byte size '99999999999999999999999999MiB': too large (at most 2^63 - 1 "
            "bytes)");
  EXPECT_EQ(Error("1.0000000000000000001KiB"),
            "invalid byte size '1.0000000000000000001KiB': too many fraction digits");
}

// Below 1 KiB the human form would only repeat the count (not "12 bytes (12 B)").
TEST(ByteSizeTest, BytesAndHuman) {
  EXPECT_EQ(BytesAndHuman(0), "0 bytes");
  EXPECT_EQ(BytesAndHuman(1), "1 byte");
  EXPECT_EQ(BytesAndHuman(12), "12 bytes");
  EXPECT_EQ(BytesAndHuman(1023), "1023 bytes");
  EXPECT_EQ(BytesAndHuman(1024), "1024 bytes (1.00 KiB)");
  EXPECT_EQ(BytesAndHuman(1572864), "1572864 bytes (1.50 MiB)");
  EXPECT_EQ(BytesAndHuman(-2048), "-2048 bytes (-2.00 KiB)");
}

TEST(ByteSizeTest, FormatBytes) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1024), "1.00 KiB");
  EXPECT_EQ(FormatBytes(1572864), "1.50 MiB");
  EXPECT_EQ(FormatBytes(3221225472), "3.00 GiB");
  EXPECT_EQ(FormatBytes(INT64_MAX), "8.00 EiB");
  EXPECT_EQ(FormatBytes(-2048), "-2.00 KiB");
}

}  // namespace
}  // namespace memplan
