// Test helpers shared by the IR tests: parse text that must be valid, or
// that must fail.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "ir/program.h"
#include "ir/text_parser.h"

namespace memplan {

// The program `text` parses to (file name "t.mpir"); records a test failure
// and returns an empty Program when it does not parse.
inline Program ParseOk(std::string_view text) {
  absl::StatusOr<Program> p = ParseProgram(text, "t.mpir");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *std::move(p) : Program{};
}

// The error message parsing `text` (file name "t.mpir") gives; records a
// test failure unless it is InvalidArgument, "unexpectedly parsed" when it
// parses.
inline std::string Err(std::string_view text) {
  absl::StatusOr<Program> p = ParseProgram(text, "t.mpir");
  if (p.ok()) return "unexpectedly parsed";
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(p.status().message());
}

}  // namespace memplan
