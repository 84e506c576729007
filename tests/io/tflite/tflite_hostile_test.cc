// Truncated and hostile TFLite files: an error naming the file (and the byte
// where it helps), never a crash or a read outside the buffer (ASan).
#include <cstring>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "flatbuffers/base.h"
#include "io/tflite/importer.h"
#include "io/tflite/model.h"
#include "tests/io/tflite/tflite_test_models.h"

namespace memplan {
namespace {

using tflite_test::BuildModel;
using tflite_test::ConvReshapeFc;
using ::testing::HasSubstr;

absl::Status LoadBytes(const std::string& bytes) {
  absl::StatusOr<TfliteModel> model =
      ParseTfliteModel(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), "h.tflite");
  if (!model.ok()) return model.status();
  return ImportTfliteModel(*model, "h.tflite", {}).status();
}

void ExpectErrorWith(const std::string& bytes, const std::string& text) {
  const absl::Status s = LoadBytes(bytes);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("h.tflite: error: "));
  EXPECT_THAT(s.message(), HasSubstr(text));
}

void PutU32(std::string& bytes, std::size_t at, std::uint32_t value) {
  flatbuffers::WriteScalar<std::uint32_t>(bytes.data() + at, value);
}

TEST(TfliteHostileTest, EveryTruncationOfASmallModelIsAnError) {
  const std::string bytes = BuildModel(ConvReshapeFc());
  ASSERT_TRUE(LoadBytes(bytes).ok());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const absl::Status s = LoadBytes(bytes.substr(0, n));
    EXPECT_FALSE(s.ok()) << "truncated at " << n;
    EXPECT_THAT(s.message(), HasSubstr("h.tflite: error: ")) << n;
  }
}

TEST(TfliteHostileTest, WrongIdentifierAndTooShort) {
  std::string bytes = BuildModel(ConvReshapeFc());
  bytes[5] = 'X';
  ExpectErrorWith(bytes, "not a TFLite file: bytes 4-7 are not the identifier 'TFL3'");
  ExpectErrorWith("TFL", "not a TFLite file: 3 bytes, too short");
}

TEST(TfliteHostileTest, RootOffsetOutsideTheFile) {
  std::string bytes = BuildModel(ConvReshapeFc());
  PutU32(bytes, 0, 0x7fffff00);
  ExpectErrorWith(bytes, "malformed TFLite file: offset 2147483392 pointing outside the file");
  ExpectErrorWith(bytes, "at byte 0");
}

TEST(TfliteHostileTest, RootPointingAtItselfIsACycle) {
  std::string bytes = BuildModel(ConvReshapeFc());
  PutU32(bytes, 0, 0);
  ExpectErrorWith(bytes, "offset pointing at itself (a cyclic reference) at byte 0");
}

// Every uoffset inside the Model's vtable-addressed fields pointed past the
// end: each gives a located error.
TEST(TfliteHostileTest, FieldOffsetsOutsideTheFile) {
  const std::string good = BuildModel(ConvReshapeFc());
  const auto root = flatbuffers::ReadScalar<std::uint32_t>(good.data());
  const auto vtable = root - flatbuffers::ReadScalar<std::int32_t>(good.data() + root);
  for (int id : {1, 2, 4}) {
    const auto field = flatbuffers::ReadScalar<std::uint16_t>(good.data() + vtable + 4 + 2 * id);
    ASSERT_NE(field, 0) << id;
    std::string bytes = good;
    PutU32(bytes, root + field, static_cast<std::uint32_t>(good.size()));
    ExpectErrorWith(bytes, "pointing outside the file");
    ExpectErrorWith(bytes, "at byte " + std::to_string(root + field));
  }
}

TEST(TfliteHostileTest, VtableOutsideTheFile) {
  std::string bytes = BuildModel(ConvReshapeFc());
  const auto root = flatbuffers::ReadScalar<std::uint32_t>(bytes.data());
  flatbuffers::WriteScalar<std::int32_t>(bytes.data() + root, -0x10000000);
  ExpectErrorWith(bytes, "table whose vtable or fields lie outside the file at byte " +
                             std::to_string(root));
}

TEST(TfliteHostileTest, VtableTooShortForItsSizes) {
  std::string bytes = BuildModel(ConvReshapeFc());
  const auto root = flatbuffers::ReadScalar<std::uint32_t>(bytes.data());
  const auto vtable = root - flatbuffers::ReadScalar<std::int32_t>(bytes.data() + root);
  flatbuffers::WriteScalar<std::uint16_t>(bytes.data() + vtable, 2);
  ExpectErrorWith(bytes, "table whose vtable is 2 bytes at byte " + std::to_string(root));
}

// Deterministic byte flips: each mutant loads or fails with a message;
// none may crash or read outside the buffer (the ASan build checks that).
TEST(TfliteHostileTest, FlippedBytesNeverCrash) {
  const std::string good = BuildModel(ConvReshapeFc());
  std::uint32_t state = 12345;
  const auto next = [&state] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = good;
    for (int k = 0; k < 3; ++k) bytes[next() % bytes.size()] = static_cast<char>(next() & 0xff);
    const absl::Status s = LoadBytes(bytes);
    if (!s.ok()) {
      ++errors;
      EXPECT_THAT(s.message(), HasSubstr("h.tflite: error: "));
    }
  }
  EXPECT_GT(errors, 0);
}

TEST(TfliteHostileTest, VectorLongerThanTheFile) {
  tflite_test::Model m = ConvReshapeFc();
  m.subgraphs[0].tensors[0].shape = {1, 4, 4, 0x0badf00d};  // a marker to find
  std::string bytes = BuildModel(m);
  const std::size_t marker = bytes.find(std::string("\x0d\xf0\xad\x0b", 4));
  ASSERT_NE(marker, std::string::npos);
  PutU32(bytes, marker - 16, 0x40000000);  // the shape vector's length
  ExpectErrorWith(bytes, "vector (field 0) longer than the file");
}

TEST(TfliteHostileTest, CyclicControlFlow) {
  tflite_test::Model m;
  m.opcodes = {{129, ""}};  // CALL_ONCE
  tflite_test::Subgraph main;
  main.operators = {{0, {}, {}, {1}}};
  tflite_test::Subgraph init;
  init.operators = {{0, {}, {}, {0}}};  // calls the main subgraph back
  m.subgraphs = {main, init};
  ExpectErrorWith(BuildModel(m), "subgraph 0 calls itself");
}

// A chain of CALL_ONCE subgraphs: 0 -> 1 -> ... -> n - 1, each calling the
// next (the importer recurses per level).
tflite_test::Model CallOnceChain(int n) {
  tflite_test::Model m;
  m.opcodes = {{129, ""}};  // CALL_ONCE
  m.subgraphs.resize(static_cast<std::size_t>(n));
  for (int s = 0; s + 1 < n; ++s) m.subgraphs[static_cast<std::size_t>(s)].operators = {{0, {}, {}, {s + 1}}};
  return m;
}

// Nesting up to kMaxNestingDepth (256) imports; one level more is refused
// before the importer recurses further, and 20,000 levels cannot overflow
// the stack.
TEST(TfliteHostileTest, NestingDepthIsLimited) {
  EXPECT_TRUE(LoadBytes(BuildModel(CallOnceChain(257))).ok());
  const absl::Status deep = LoadBytes(BuildModel(CallOnceChain(258)));
  EXPECT_EQ(deep.message(),
            "h.tflite: error: subgraph 257 is nested more than 256 control-flow operators deep (IF, "
            "WHILE, CALL_ONCE); the limit is 256");
  const absl::Status deeper = LoadBytes(BuildModel(CallOnceChain(20000)));
  EXPECT_EQ(deeper.message(), deep.message());
}

TEST(TfliteHostileTest, AbsurdShapes) {
  tflite_test::Model m = ConvReshapeFc();
  m.subgraphs[0].tensors[2].shape = {1 << 30, 1 << 30, 1 << 30, 4};
  ExpectErrorWith(BuildModel(m), "subgraph 0 tensor 2 ('conv') has an absurd shape: more than "
                                 "2^62 bytes");
  m.subgraphs[0].tensors[2].shape = {1, -4};
  ExpectErrorWith(BuildModel(m), "subgraph 0 tensor 2 ('conv') has a negative dim -4");
}

TEST(TfliteHostileTest, IndicesOutOfRange) {
  tflite_test::Model m = ConvReshapeFc();
  m.subgraphs[0].operators[1].inputs = {17};
  ExpectErrorWith(BuildModel(m), "subgraph 0 operator 1 inputs names tensor 17 but the subgraph "
                                 "has 6");
  m = ConvReshapeFc();
  m.subgraphs[0].tensors[1].buffer = 9;
  ExpectErrorWith(BuildModel(m), "subgraph 0 tensor 1 ('filter') names buffer 9 but the model "
                                 "has 3");
  m = ConvReshapeFc();
  m.subgraphs[0].operators[0].opcode_index = 5;
  ExpectErrorWith(BuildModel(m), "operator with opcode_index 5 but 3 operator codes");
  m = ConvReshapeFc();
  m.subgraphs[0].tensors[2].type = 5;  // STRING
  ExpectErrorWith(BuildModel(m), "has type code 5, which has no fixed size");
}

std::string TfliteSharedBytes(const std::string& name) {
  std::ifstream in(std::string(MEMPLAN_SHARED_DIR) + "/data/tflite/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The brief's loop: person_detect.tflite cut at every 1 KiB.
TEST(TfliteHostileTest, SharedModelTruncatedAtEveryKibibyte) {
  const std::string bytes = TfliteSharedBytes("person_detect.tflite");
  if (bytes.empty()) GTEST_SKIP() << "../shared/data/tflite not present";
  ASSERT_TRUE(LoadBytes(bytes).ok());
  int failures = 0;
  for (std::size_t n = 0; n < bytes.size(); n += 1024) {
    const absl::Status s = LoadBytes(bytes.substr(0, n));
    EXPECT_FALSE(s.ok()) << "truncated at " << n;
    EXPECT_THAT(s.message(), HasSubstr("h.tflite: error: ")) << n;
    failures += s.ok() ? 0 : 1;
  }
  EXPECT_EQ(failures, 294);  // ceil(300568 / 1024)
}

}  // namespace
}  // namespace memplan
