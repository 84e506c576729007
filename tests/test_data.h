// The bundled test inputs under tests/data/ and examples/, read by tests of any layer.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace memplan {

// The text of tests/data/`relative` (e.g. "mpir/freed_weight.mpir"); records
// a test failure and returns "" when it cannot be read.
inline std::string ReadTestData(const std::string& relative) {
  const std::string path = std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/" + relative;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The path of the bundled example examples/`name` (e.g. "mlp.mpir").
inline std::string ExamplePath(const std::string& name) {
  return std::string(MEMPLAN_SOURCE_DIR) + "/examples/" + name;
}

// The text of the bundled example examples/`name` (e.g. "mlp.mpir"); records
// a test failure and returns "" when it cannot be read.
inline std::string ReadExample(const std::string& name) {
  const std::string path = ExamplePath(name);
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace memplan
