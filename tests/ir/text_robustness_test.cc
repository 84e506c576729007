// The parser never crashes or hangs: mangled versions of the examples (fixed
// seed) parse to OK or InvalidArgument, and whatever parses round-trips.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"

namespace memplan {
namespace {

// Dims, symbolic sizes, operand ranges and an initializer, which no bundled
// example shows yet.
constexpr char kDynamicExample[] =
    "program @dynamic\n"
    "dim %n <= 4096\n"
    "dim %m\n"
    "initializer func @init() {\n"
    "  %table = splat() : (64*%n)\n"
    "  return %table\n"
    "}\n"
    "entry func @main(%x: (4*%n + 64), %k: (2*64), %ready: timepoint) {\n"
    "  %y = exp(%x) : (4*%n + 64) tied(%x)\n"
    "  %v = slice(%y) : (2*%n) view(%y, 64)\n"
    "  %w = fill(%y[64 for 4*%n], %k[0 for 128]) : (max(align(%n*%m, 16), 256))\n"
    "  %s, %done = execute(%w, %ready) : (max(align(%n*%m, 16), 256)), timepoint {callee = @r}\n"
    "  store(%v[%n for %n])\n"
    "  return %s, %done\n"
    "}\n"
    "region @r(%in: (max(256, align(%n*%m, 16))), %t: timepoint) {\n"
    "  %o = dispatch(%in[0 for 256]) : (max(align(%n*%m, 16), 256)) {wave = 0}\n"
    "  %d = barrier(%t) : timepoint\n"
    "  return %o, %d\n"
    "}\n";

std::vector<std::string> ExampleTexts() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MEMPLAN_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() == ".mpir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
  }
  texts.push_back(kDynamicExample);
  return texts;
}

// Fragments that tend to reach deep parser states.
const std::vector<std::string>& Fragments() {
  static const std::vector<std::string> fragments = {
      "{", "}", "(", ")", "[", "]", ",", ":", "=", "%", "@", "\"", "\\", "#", "\n", " ", "-", "%\"", "\\x",
      "\xFF", "\xC3", std::string(1, '\0'), "tied(", "view(", "space(", "constant", "entry ", "func @",
      "region @", "return ", "timepoint", "f32[", "99999999999999999999", "1e999", "-1", "0", "1.5",
      "while", "call", "execute", "copy-done", "{cond = @", "branches = [", "callee = @", "[[[[", "wave = ",
      "dim %n", "<=", "+", "*", "[0 for ", " for ", "max(", "align(", "(4*%n)", "((((", "initializer func @"};
  return fragments;
}

// Uses the engine's raw output only, so the mutations are identical everywhere.
std::size_t Pick(std::mt19937& rng, std::size_t n) { return n == 0 ? 0 : rng() % n; }

std::string Mutate(std::string text, std::mt19937& rng, const std::vector<std::string>& corpus) {
  const int edits = 1 + static_cast<int>(Pick(rng, 4));
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = Pick(rng, text.size() + 1);
    switch (Pick(rng, 7)) {
      case 0:  // flip a byte
        if (at < text.size()) text[at] = static_cast<char>(rng() & 0xFF);
        break;
      case 1:  // delete a range
        text.erase(at, Pick(rng, 16));
        break;
      case 2:  // duplicate a range
        text.insert(at, text.substr(Pick(rng, text.size() + 1), Pick(rng, 40)));
        break;
      case 3:  // insert a fragment
        text.insert(at, Fragments()[Pick(rng, Fragments().size())]);
        break;
      case 4:  // truncate
        text.resize(at);
        break;
      case 5: {  // splice in a piece of another example
        const std::string& other = corpus[Pick(rng, corpus.size())];
        text.insert(at, other.substr(Pick(rng, other.size() + 1), Pick(rng, 80)));
        break;
      }
      default:  // swap two bytes
        if (!text.empty()) std::swap(text[Pick(rng, text.size())], text[Pick(rng, text.size())]);
        break;
    }
  }
  return text;
}

// Parses `text`; accepted input must print, re-parse and print identically.
void CheckOne(const std::string& text, int* accepted) {
  absl::StatusOr<Program> p = ParseProgram(text, "fuzz.mpir");
  if (!p.ok()) {
    ASSERT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << p.status();
    ASSERT_EQ(p.status().message().rfind("fuzz.mpir:", 0), 0u) << p.status();
    return;
  }
  ++*accepted;
  const std::string printed = PrintProgram(*p);
  absl::StatusOr<Program> again = ParseProgram(printed, "printed");
  ASSERT_TRUE(again.ok()) << again.status() << "\n--- input:\n" << text << "\n--- printed:\n" << printed;
  ASSERT_EQ(PrintProgram(*again), printed);
}

TEST(TextRobustnessTest, MutatedExamples) {
  const std::vector<std::string> corpus = ExampleTexts();
  ASSERT_FALSE(corpus.empty());
  std::mt19937 rng(20240611);
  int accepted = 0;
  constexpr int kRounds = 4000;
  for (int i = 0; i < kRounds; ++i) {
    const std::string text = Mutate(corpus[i % corpus.size()], rng, corpus);
    CheckOne(text, &accepted);
    if (HasFatalFailure()) return;
  }
  // Some mutations (in comments, in numbers) keep the program valid: the
  // round-trip branch above is exercised too.
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, kRounds);
}

TEST(TextRobustnessTest, RandomBytes) {
  std::mt19937 rng(7);
  int accepted = 0;
  for (int i = 0; i < 500; ++i) {
    std::string text(Pick(rng, 200), '\0');
    for (char& c : text) c = static_cast<char>(rng() & 0xFF);
    CheckOne(text, &accepted);
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(accepted, 0);
}

TEST(TextRobustnessTest, PathologicalInputs) {
  int accepted = 0;
  CheckOne(std::string(100000, '['), &accepted);
  CheckOne("entry func @m() { %y = c.op() : 4 {k = " + std::string(100000, '[') + "} }", &accepted);
  CheckOne(std::string(100000, '{'), &accepted);
  CheckOne(std::string(65536, '%'), &accepted);
  CheckOne("entry func @m(" + std::string(60000, '%') + ") {}", &accepted);
  CheckOne(std::string(200000, '\n') + "entry func @m() {}", &accepted);
  CheckOne("dim %n entry func @m(%x: " + std::string(100000, '(') + ") {}", &accepted);
  std::string sum = "dim %n dim %m entry func @m(%x: (max(%n, %m)";
  for (int i = 0; i < 5000; ++i) sum += "\n+ max(%n, %m)";
  CheckOne(sum + ")) {}", &accepted);
  std::string product = "dim %n entry func @m(%x: (1";
  for (int i = 0; i < 50000; ++i) product += "\n*%n";
  CheckOne(product + ")) {}", &accepted);
  EXPECT_EQ(accepted, 1);
}

}  // namespace
}  // namespace memplan
