// The bundled test inputs under tests/data/ and examples/, read by tests of any layer.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/temp_cleanup.h"

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

// A path in the test temp folder that no other test can share: ctest runs
// tests in parallel processes, so a fixed name like "t.json" races (one test
// reads the file while another rewrites it). The name carries the running
// test's suite and name and the process id, then `file`.
inline std::string TestTempPath(const std::string& file) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = "memplan";
  if (test != nullptr) name += std::string("_") + test->test_suite_name() + "." + test->name();
  for (char& c : name) {
    if (c == '/') c = '_';  // parameterised test names contain '/'
  }
  const std::string path =
      ::testing::TempDir() + "/" + name + "_" + std::to_string(::getpid()) + "_" + file;
  TempCleanup::Register(path);
  return path;
}

// Writes `text` to TestTempPath(`file`) and returns that path.
inline std::string WriteTestFile(const std::string& file, const std::string& text) {
  const std::string path = TestTempPath(file);
  std::ofstream(path) << text;
  return path;
}

}  // namespace memplan
