// Test helper for errors about generated JSON, whose line:col moves with
// every change to the JSON writer: the message without its location, after
// checking that it has one. The locations themselves are tested exactly in
// tests/io/json_locate_test.cc and JsonPlanTest.SchemaErrorsAreLocated.
#pragma once

#include <regex>
#include <string>

#include "gtest/gtest.h"

namespace memplan::testing_located {

// "p.json:1:57: error: /x: missing" -> "p.json: error: /x: missing"; records
// a failure (and returns `message` unchanged) when it has no `:line:col`.
inline std::string Unlocated(const std::string& message) {
  static const std::regex kLocated(R"(^([^\n]*?):[1-9][0-9]*:[1-9][0-9]*: error: )");
  std::smatch m;
  if (!std::regex_search(message, m, kLocated)) {
    ADD_FAILURE() << "no line:col in: " << message;
    return message;
  }
  return m[1].str() + ": error: " + m.suffix().str();
}

}  // namespace memplan::testing_located
