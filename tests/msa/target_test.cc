#include "msa/target.h"

#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;

class TargetFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    return WriteTestFile("target.json", text);
  }
};

constexpr const char* kValid = R"({
  "name": "my-npu", "description": "test",
  "flops_per_second": 4e12, "transcendentals_per_second": 1e11,
  "default_bandwidth": 1.6e10, "alternate_bandwidth": 1.28e11,
  "copy_bandwidth": 1.6e10, "fast_memory_bytes": 2097152, "alignment": 64
})";

TEST(TargetTest, PresetsAreListedAndResolvable) {
  const std::vector<Target>& presets = BuiltinTargets();
  ASSERT_EQ(presets.size(), 5u);
  EXPECT_EQ(presets[0].name, "edge-npu");
  EXPECT_EQ(presets[1].name, "mobile-gpu");
  EXPECT_EQ(presets[2].name, "tpu-like");
  for (const Target& t : presets) {
    absl::StatusOr<Target> r = ResolveTarget(t.name);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->fast_memory_bytes, t.fast_memory_bytes);
    // Fast memory is faster than the default memory, and copies no faster
    // than the default memory can serve them.
    EXPECT_GT(t.alternate_bandwidth, t.default_bandwidth) << t.name;
    EXPECT_LE(t.copy_bandwidth, t.default_bandwidth) << t.name;
  }
  EXPECT_EQ(presets[0].fast_memory_bytes, 2097152);
  EXPECT_EQ(presets[0].default_bandwidth, 8e9);
}

TEST(TargetTest, UnknownPresetListsTheChoices) {
  absl::StatusOr<Target> r = ResolveTarget("gpu9000");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "error: unknown target 'gpu9000' (presets: edge-npu, mobile-gpu, tpu-like, "
            "mcu-tcm-sram-psram-flash, npu-3level; or a .json file)");
}

TEST_F(TargetFileTest, ReadsAJsonTarget) {
  absl::StatusOr<Target> t = ResolveTarget(Write(kValid));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->name, "my-npu");
  EXPECT_EQ(t->description, "test");
  EXPECT_EQ(t->flops_per_second, 4e12);
  EXPECT_EQ(t->transcendentals_per_second, 1e11);
  EXPECT_EQ(t->default_bandwidth, 1.6e10);
  EXPECT_EQ(t->alternate_bandwidth, 1.28e11);
  EXPECT_EQ(t->copy_bandwidth, 1.6e10);
  EXPECT_EQ(t->fast_memory_bytes, 2097152);
  EXPECT_EQ(t->alignment, 64);
}

TEST_F(TargetFileTest, MissingFieldPointsAtTheObject) {
  const std::string path = Write("\n  {\"flops_per_second\": 1}");
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":2:3: error: missing field \"transcendentals_per_second\"");
}

TEST_F(TargetFileTest, NonPositiveRatePointsAtItsKey) {
  std::string text = kValid;
  text.replace(text.find("1.6e10"), 6, "0");
  const std::string path = Write(text);
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":4:3: error: \"default_bandwidth\" must be a number from 1 to "
                   "1e+18 per second (got 0)");
}

TEST_F(TargetFileTest, AbsurdRatesPointAtTheirKey) {
  std::string text = kValid;
  text.replace(text.find("4e12"), 4, "2e18");
  std::string path = Write(text);
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":3:3: error: \"flops_per_second\" must be a number from 1 to "
                   "1e+18 per second (got 2e+18)");

  text = kValid;
  text.replace(text.find("1e11"), 4, "-1e11");
  path = Write(text);
  t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":3:29: error: \"transcendentals_per_second\" must be a number from 1 to "
                   "1e+18 per second (got -1e+11)");

  // Below 1 per second: times would overflow to infinity (a fuzzer's find).
  text = kValid;
  text.replace(text.find("1.6e10"), 6, "1e-300");
  path = Write(text);
  t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":4:3: error: \"default_bandwidth\" must be a number from 1 to 1e+18 per "
                   "second (got 1e-300)");

  // Beyond double range: nlohmann refuses the number itself.
  text = kValid;
  text.replace(text.find("1.28e11"), 7, "1e400");
  path = Write(text);
  t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":4:55: error: number out of range (rates must be positive, finite and <= "
                   "1e18)");
}

TEST_F(TargetFileTest, SlowerFastMemoryIsRejected) {
  std::string text = kValid;
  text.replace(text.find("1.28e11"), 7, "1e10");
  const std::string path = Write(text);
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":4:32: error: \"alternate_bandwidth\" (1e+10) must be >= "
                   "\"default_bandwidth\" (1.6e+10): the fast memory cannot be slower than "
                   "the default memory");
}

TEST_F(TargetFileTest, NegativeFastMemoryIsRejected) {
  std::string text = kValid;
  text.replace(text.find("2097152"), 7, "-1");
  const std::string path = Write(text);
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":5:29: error: \"fast_memory_bytes\" must be an integer in [0, "
                   "4611686018427387904] (at most 2^62)");
}

TEST_F(TargetFileTest, AlignmentAndFastMemoryLimits) {
  const std::pair<std::string, std::string> cases[] = {
      // 2^33 alignment, 2^62 + 1 fast memory, 0 alignment.
      {"\"alignment\": 8589934592",
       ":5:59: error: \"alignment\" must be an integer in [1, 4294967296] (at most 2^32)"},
      {"\"alignment\": 0",
       ":5:59: error: \"alignment\" must be an integer in [1, 4294967296] (at most 2^32)"},
      {"\"fast_memory_bytes\": 4611686018427387905",
       ":5:29: error: \"fast_memory_bytes\" must be an integer in [0, 4611686018427387904] (at "
       "most 2^62)"},
      {"\"fast_memory_bytes\": 18446744073709551615",
       ":5:29: error: \"fast_memory_bytes\" must be an integer in [0, 4611686018427387904] (at "
       "most 2^62)"},
  };
  for (const auto& [field, error] : cases) {
    std::string text = kValid;
    const std::string key = field.substr(0, field.find(':'));
    const size_t at = text.find(key);
    text.replace(at, text.find_first_of(",\n", at) - at, field);
    const std::string path = Write(text);
    absl::StatusOr<Target> t = ResolveTarget(path);
    ASSERT_FALSE(t.ok()) << field;
    EXPECT_EQ(t.status().message(), path + error) << field;
  }
  // The limits themselves are accepted; alignments need not be powers of two.
  std::string text = kValid;
  text.replace(text.find("2097152"), 7, "4611686018427387904");
  text.replace(text.find("64"), 2, "4294967296");
  absl::StatusOr<Target> t = ResolveTarget(Write(text));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->fast_memory_bytes, 4611686018427387904);
  EXPECT_EQ(t->alignment, 4294967296);
  text = kValid;
  text.replace(text.find("64"), 2, "48");
  t = ResolveTarget(Write(text));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->alignment, 48);
}

TEST_F(TargetFileTest, DuplicateKeyIsLocatedAtItsSecondOccurrence) {
  std::string text = kValid;
  text.replace(text.find("\"alignment\": 64"), 15, "\"alignment\": 64,\n  \"alignment\": 128");
  const std::string path = Write(text);
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), path + ":6:3: error: duplicate key \"alignment\"");
  // Nested objects are not fields: their keys are left to the type checks.
  text = kValid;
  text.replace(text.find("\"test\""), 6, "{\"a\": 1, \"a\": 2}");
  const std::string nested = Write(text);
  t = ResolveTarget(nested);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), nested + ":2:21: error: \"description\" must be a string");
}

TEST(TargetTest, ValidateTargetNamesTheField) {
  for (const Target& preset : BuiltinTargets()) EXPECT_TRUE(ValidateTarget(preset).ok()) << preset.name;
  Target t = BuiltinTargets().front();
  t.copy_bandwidth = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ValidateTarget(t).message(),
            "error: target 'edge-npu': \"copy_bandwidth\" must be a number from 1 to "
            "1e+18 per second (got inf)");
  t = BuiltinTargets().front();
  t.alternate_bandwidth = 1e9;
  EXPECT_EQ(ValidateTarget(t).message(),
            "error: target 'edge-npu': \"alternate_bandwidth\" (1e+09) must be >= "
            "\"default_bandwidth\" (8e+09): the fast memory cannot be slower than the default "
            "memory");
  t = BuiltinTargets().front();
  t.fast_memory_bytes = -1;
  EXPECT_EQ(ValidateTarget(t).message(),
            "error: target 'edge-npu': \"fast_memory_bytes\" must be in [0, "
            "4611686018427387904] (at most 2^62)");
  t.fast_memory_bytes = kMaxTotalBytes + 1;
  EXPECT_EQ(ValidateTarget(t).message(),
            "error: target 'edge-npu': \"fast_memory_bytes\" must be in [0, "
            "4611686018427387904] (at most 2^62)");
  t = BuiltinTargets().front();
  t.alignment = Bytes{1} << 33;
  EXPECT_EQ(ValidateTarget(t).message(),
            "error: target 'edge-npu': \"alignment\" must be in [1, 4294967296] (at most 2^32)");
  t.alignment = 0;
  EXPECT_EQ(ValidateTarget(t).message(),
            "error: target 'edge-npu': \"alignment\" must be in [1, 4294967296] (at most 2^32)");
}

TEST_F(TargetFileTest, WrongTypeAndUnknownKey) {
  std::string text = kValid;
  text.replace(text.find("64"), 2, "\"64\"");
  std::string path = Write(text);
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            path + ":5:59: error: \"alignment\" must be an integer in [1, 4294967296] (at most "
                   "2^32)");

  text = kValid;
  text.replace(text.find("\"name\""), 6, "\"nmae\"");
  path = Write(text);
  t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr(":2:3: error: unknown key \"nmae\""));
}

TEST_F(TargetFileTest, MalformedJsonIsLocated) {
  const std::string path = Write("{\n  \"name\": \"x\",\n  oops\n}");
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr(path + ":3:3: error: "));
}

TEST_F(TargetFileTest, UnreadableFile) {
  absl::StatusOr<Target> t = ResolveTarget("/nonexistent/target.json");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(), "/nonexistent/target.json: error: cannot read target file");
  t = ResolveTarget(::testing::TempDir() + "/");
  EXPECT_FALSE(t.ok());
}

}  // namespace
}  // namespace memplan
