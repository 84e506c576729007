#include "ir/dtype.h"

#include <limits>

#include "gtest/gtest.h"

namespace memplan {
namespace {

TEST(DtypeBitsTest, KnownTypes) {
  EXPECT_EQ(DtypeBits("f32"), 32);
  EXPECT_EQ(DtypeBits("f16"), 16);
  EXPECT_EQ(DtypeBits("bf16"), 16);
  EXPECT_EQ(DtypeBits("f64"), 64);
  EXPECT_EQ(DtypeBits("f8e4m3"), 8);
  EXPECT_EQ(DtypeBits("f8e5m2"), 8);
  EXPECT_EQ(DtypeBits("f8e4m3fn"), 8);
  EXPECT_EQ(DtypeBits("pred"), 8);
  EXPECT_EQ(DtypeBits("bool"), 8);
  EXPECT_EQ(DtypeBits("i1"), 8);
  EXPECT_EQ(DtypeBits("i2"), 2);
  EXPECT_EQ(DtypeBits("i4"), 4);
  EXPECT_EQ(DtypeBits("u4"), 4);
  EXPECT_EQ(DtypeBits("i8"), 8);
  EXPECT_EQ(DtypeBits("u8"), 8);
  EXPECT_EQ(DtypeBits("s8"), 8);
  EXPECT_EQ(DtypeBits("i16"), 16);
  EXPECT_EQ(DtypeBits("u16"), 16);
  EXPECT_EQ(DtypeBits("i32"), 32);
  EXPECT_EQ(DtypeBits("u32"), 32);
  EXPECT_EQ(DtypeBits("s32"), 32);
  EXPECT_EQ(DtypeBits("i64"), 64);
  EXPECT_EQ(DtypeBits("u64"), 64);
  EXPECT_EQ(DtypeBits("c64"), 64);
  EXPECT_EQ(DtypeBits("c128"), 128);
  EXPECT_EQ(DtypeBits("f6e2m3fn"), 6);
  EXPECT_EQ(DtypeBits("f4e2m1fn"), 4);
}

TEST(DtypeBitsTest, UnknownTypes) {
  EXPECT_EQ(DtypeBits(""), std::nullopt);
  EXPECT_EQ(DtypeBits("f31"), std::nullopt);
  EXPECT_EQ(DtypeBits("F32"), std::nullopt);
  EXPECT_EQ(DtypeBits("float"), std::nullopt);
}

TEST(TensorBytesTest, Sizes) {
  EXPECT_EQ(*TensorBytes({"f32", {1, 3, 224, 224}}), 602112);
  EXPECT_EQ(*TensorBytes({"f32", {}}), 4);          // scalar: one element
  EXPECT_EQ(*TensorBytes({"pred", {}}), 1);
  EXPECT_EQ(*TensorBytes({"bf16", {3, 5}}), 30);
  EXPECT_EQ(*TensorBytes({"c128", {2}}), 32);
  EXPECT_EQ(*TensorBytes({"f32", {4, 0, 7}}), 0);   // empty tensor
}

TEST(TensorBytesTest, SubByteTypesRoundUp) {
  EXPECT_EQ(*TensorBytes({"i4", {3}}), 2);    // 12 bits
  EXPECT_EQ(*TensorBytes({"u4", {4}}), 2);    // 16 bits
  EXPECT_EQ(*TensorBytes({"i2", {5}}), 2);    // 10 bits
  EXPECT_EQ(*TensorBytes({"f6e2m3fn", {3}}), 3);  // 18 bits
  EXPECT_EQ(*TensorBytes({"i4", {}}), 1);
}

TEST(TensorBytesTest, LargestSizesDoNotOverflowEarly) {
  // 2^60 i4 elements = 2^59 bytes: elements * bits would overflow, bytes do not.
  EXPECT_EQ(*TensorBytes({"i4", {std::int64_t{1} << 60}}), std::int64_t{1} << 59);
  EXPECT_EQ(*TensorBytes({"u8", {std::numeric_limits<std::int64_t>::max()}}),
            std::numeric_limits<std::int64_t>::max());
}

TEST(TensorBytesTest, Errors) {
  EXPECT_EQ(TensorBytes({"f31", {2}}).status().message(), "unknown dtype 'f31'");
  EXPECT_EQ(TensorBytes({"f32", {2, -1}}).status().message(), "negative dimension -1");
  EXPECT_EQ(TensorBytes({"f32", {std::int64_t{1} << 62}}).status().message(),
            "tensor size overflows int64");
  EXPECT_EQ(TensorBytes({"u8", {std::int64_t{1} << 32, std::int64_t{1} << 32}}).status().message(),
            "tensor size overflows int64");
  EXPECT_EQ(TensorBytes({"f32", {2}}).status().code(), absl::StatusCode::kOk);
  EXPECT_EQ(TensorBytes({"f31", {2}}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace memplan
