// Helpers for the HLO importer tests: import a module from text and read the
// alias set (buffer) of a value by name.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/alias_sets.h"
#include "io/hlo/importer.h"

namespace memplan::hlo_test {

inline Program Import(const std::string& text) {
  absl::StatusOr<Program> program = ImportHloText(text, "t.hlo");
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : Program{};
}

// The error message of importing `text` as t.hlo ("" when it imports).
inline std::string ImportError(const std::string& text) {
  absl::StatusOr<Program> program = ImportHloText(text, "t.hlo");
  return program.ok() ? std::string() : std::string(program.status().message());
}

// Names of the values sharing storage with the value `name`, sorted.
inline std::vector<std::string> BufferOf(const Program& program, const std::string& name) {
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(program);
  EXPECT_TRUE(sets.ok()) << sets.status();
  const ValueId v = program.FindValue(name);
  EXPECT_NE(v, kNoId) << "no value " << name;
  if (!sets.ok() || v == kNoId) return {};
  std::vector<std::string> out;
  for (ValueId m : sets->sets[static_cast<std::size_t>(sets->set_of_value[static_cast<std::size_t>(v)])].members) {
    out.push_back(program.values[static_cast<std::size_t>(m)].name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace memplan::hlo_test
