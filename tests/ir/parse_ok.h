// Test helper shared by the IR tests: parse text that must be valid.
#pragma once

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

}  // namespace memplan
