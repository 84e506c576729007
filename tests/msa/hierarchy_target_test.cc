// The hierarchy form of target files (msa/target_spaces.h): parsing, the
// two-space view, the presets and their copies in examples/targets/, and
// every located error.
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/target.h"
#include "msa/target_spaces.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

constexpr const char* kBase = R"({"name": "t", "flops_per_second": 1e9, "transcendentals_per_second": 1e8,
 "spaces": [
  {"name": "fast", "capacity_bytes": 1024, "read_bandwidth": 4e9, "write_bandwidth": 4e9},
  {"name": "slow", "capacity_bytes": 65536, "read_bandwidth": 1e9, "write_bandwidth": 1e9},
  {"name": "rom", "kind": "flash", "capacity_bytes": 65536, "read_bandwidth": 5e8, "write_bandwidth": 5e8}],
 "links": [
  {"from": "slow", "to": "fast", "bandwidth": 1e9},
  {"from": "fast", "to": "slow", "bandwidth": 1e9}]})";

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The message of resolving `text` as file "t.json" (its path replaced).
std::string Error(const std::string& text) {
  const std::string path = TestTempPath("t.json");
  std::ofstream(path) << text;
  absl::StatusOr<Target> t = ResolveTarget(path);
  if (t.ok()) return "ok";
  std::string message(t.status().message());
  if (message.rfind(path, 0) == 0) message = "t.json" + message.substr(path.size());
  return message;
}

TEST(HierarchyTargetTest, ParsesSpacesLinksAndTheTwoSpaceView) {
  const std::string path = TestTempPath("ok.json");
  std::ofstream(path) << kBase;
  absl::StatusOr<Target> t = ResolveTarget(path);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->spaces.size(), 3u);
  EXPECT_EQ(t->spaces[2].name, "rom");
  EXPECT_TRUE(t->spaces[2].flash);
  EXPECT_FALSE(t->spaces[2].writable);
  EXPECT_TRUE(t->spaces[1].writable);
  EXPECT_EQ(t->spaces[0].alignment, 1);
  ASSERT_EQ(t->links.size(), 2u);
  EXPECT_EQ(t->links[0].from, 1);
  EXPECT_EQ(t->links[0].to, 0);
  EXPECT_EQ(t->links[0].queues, 1);
  // Two-space view: fast as alternate, slow (the slowest writable) as default.
  EXPECT_EQ(t->fast_memory_bytes, 1024);
  EXPECT_EQ(t->alternate_bandwidth, 4e9);
  EXPECT_EQ(t->default_bandwidth, 1e9);
  EXPECT_EQ(t->copy_bandwidth, 1e9);
  EXPECT_TRUE(ValidateTarget(*t).ok());
  // Space ids: level 0 -> 1 (alternate), slow -> 0 (default), rom -> 2.
  EXPECT_EQ(SpaceIdOfLevel(*t, 0), kAlternateSpace);
  EXPECT_EQ(SpaceIdOfLevel(*t, 1), kDefaultSpace);
  EXPECT_EQ(SpaceIdOfLevel(*t, 2), 2);
  EXPECT_EQ(LevelOfSpace(*t, 2), 2);
  EXPECT_EQ(LevelOfSpace(*t, 7), -1);
}

TEST(HierarchyTargetTest, PresetsEqualTheirExampleFiles) {
  for (const char* name : {"mcu-tcm-sram-psram-flash", "npu-3level"}) {
    absl::StatusOr<Target> preset = ResolveTarget(name);
    ASSERT_TRUE(preset.ok()) << preset.status();
    const std::string path = std::string(MEMPLAN_SOURCE_DIR) + "/examples/targets/" + name + ".json";
    absl::StatusOr<Target> file = ResolveTarget(path);
    ASSERT_TRUE(file.ok()) << file.status();
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    bool found = false;
    for (std::string_view preset_text : HierarchyPresetTexts()) {
      found = found || text.str() == std::string(preset_text) + "\n";
    }
    EXPECT_TRUE(found) << path << " differs from the preset's text";
    EXPECT_EQ(file->spaces.size(), preset->spaces.size());
    EXPECT_EQ(file->name, name);
    EXPECT_TRUE(ValidateTarget(*preset).ok());
  }
  const Target mcu = *ResolveTarget("mcu-tcm-sram-psram-flash");
  ASSERT_EQ(mcu.spaces.size(), 4u);
  EXPECT_EQ(mcu.spaces[0].capacity_bytes, 65536);
  EXPECT_FALSE(mcu.spaces[3].writable);
  EXPECT_EQ(SlowestWritableSpace(mcu), 2);  // psram
}

TEST(HierarchyTargetTest, LinkToAnUnknownSpace) {
  EXPECT_EQ(Error(Replace(kBase, R"("from": "slow", "to": "fast")", R"("from": "dram", "to": "fast")")),
            "t.json:7:4: error: link from unknown space 'dram' (spaces: fast, slow, rom)");
}

TEST(HierarchyTargetTest, WritableFlash) {
  EXPECT_EQ(Error(Replace(kBase, R"("kind": "flash",)", R"("kind": "flash", "writable": true,)")),
            "t.json:5:36: error: space 'rom' is flash and cannot be writable: flash holds "
            "constants, programmed with the image, and is read in place");
}

TEST(HierarchyTargetTest, DuplicateSpaceName) {
  EXPECT_EQ(Error(Replace(kBase, R"({"name": "rom")", R"({"name": "slow")")),
            "t.json:5:4: error: duplicate memory space name 'slow'");
}

TEST(HierarchyTargetTest, NoWritableSpace) {
  EXPECT_EQ(Error(Replace(kBase, R"({"name": "fast",)", R"({"name": "fast", "writable": false,)")),
            "t.json:3:3: error: the first (fastest) space 'fast' must be writable: memory space "
            "assignment copies into it");
  EXPECT_EQ(Error(Replace(kBase, R"({"name": "slow",)", R"({"name": "slow", "writable": false,)")),
            "t.json:2:2: error: a hierarchy needs a writable space besides the first (fastest) "
            "one, for the data that does not fit there");
}

TEST(HierarchyTargetTest, LinkIntoReadOnlySpaceOrMissingOrRepeated) {
  EXPECT_EQ(Error(Replace(kBase, R"({"from": "fast", "to": "slow", "bandwidth": 1e9}]})",
                          R"({"from": "fast", "to": "slow", "bandwidth": 1e9},
  {"from": "fast", "to": "rom", "bandwidth": 1e9}]})")),
            "t.json:9:20: error: a link cannot copy into read-only space 'rom'");
  EXPECT_EQ(Error(Replace(kBase, R"({"from": "fast", "to": "slow", "bandwidth": 1e9}]})",
                          R"({"from": "fast", "to": "slow", "bandwidth": 1e9},
  {"from": "fast", "to": "slow", "bandwidth": 2e9}]})")),
            "t.json:9:3: error: duplicate link from 'fast' to 'slow'");
  EXPECT_EQ(Error(Replace(kBase, R"(,
  {"from": "fast", "to": "slow", "bandwidth": 1e9}]})", "]}")),
            "t.json:6:2: error: the links must connect the fastest space 'fast' and the slowest "
            "writable space 'slow' both ways (prefetch and eviction)");
}

TEST(HierarchyTargetTest, BadFieldsAreLocated) {
  EXPECT_EQ(Error(Replace(kBase, R"("capacity_bytes": 1024,)", R"("capacity_bytes": -1,)")),
            "t.json:3:20: error: \"capacity_bytes\" must be an integer in [0, 4611686018427387904]");
  EXPECT_EQ(Error(Replace(kBase, R"("read_bandwidth": 4e9,)", R"("read_bandwidth": 0,)")),
            "t.json:3:44: error: \"read_bandwidth\" must be a number from 1 to 1e+18 per second "
            "(got 0)");
  EXPECT_EQ(Error(Replace(kBase, R"({"name": "fast",)", R"({"name": "fast", "speed": 1,)")),
            "t.json:3:20: error: unknown key \"speed\" (expected name, kind, capacity_bytes, "
            "alignment, read_bandwidth, write_bandwidth, latency_seconds, writable, devices)");
  EXPECT_EQ(Error(Replace(kBase, R"("bandwidth": 1e9},)", R"("bandwidth": 1e9, "queues": 0},)")),
            "t.json:7:52: error: \"queues\" must be an integer in [1, 64]");
  EXPECT_EQ(Error(Replace(kBase, R"({"name": "fast",)", R"({"name": "fast", "devices": [],)")),
            "t.json:3:20: error: \"devices\" must be a non-empty array of device names (\"*\": "
            "every device)");
  // The flat memory fields do not mix with spaces[].
  EXPECT_EQ(Error(Replace(kBase, R"("name": "t",)", R"("name": "t", "fast_memory_bytes": 4,)")),
            "t.json:1:15: error: unknown key \"fast_memory_bytes\" (expected name, description, "
            "flops_per_second, transcendentals_per_second, spaces, links)");
}

}  // namespace
}  // namespace memplan
