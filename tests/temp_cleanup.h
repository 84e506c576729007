// Temp files and folders the tests make are removed when the test process
// ends with every test passed (kept on a failure, to look at): each ctest run
// made hundreds of them under /tmp, and nothing else removes them.
#pragma once

#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace memplan {

class TempCleanup : public ::testing::Environment {
 public:
  // Removes `path` (a file or a folder, with its contents) at the end of the
  // process, if every test passed.
  static void Register(const std::string& path) {
    const std::lock_guard<std::mutex> lock(Mutex());
    Paths().push_back(path);
  }

  void TearDown() override {
    if (!::testing::UnitTest::GetInstance()->Passed()) return;
    const std::lock_guard<std::mutex> lock(Mutex());
    for (const std::string& path : Paths()) {
      std::error_code ignored;  // a test may have removed it already
      std::filesystem::remove_all(path, ignored);
    }
    Paths().clear();
  }

 private:
  static std::vector<std::string>& Paths() {
    static std::vector<std::string> paths;
    return paths;
  }
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
};

// Registered once per test program (gtest owns and deletes it).
inline ::testing::Environment* const kTempCleanup =
    ::testing::AddGlobalTestEnvironment(new TempCleanup);

}  // namespace memplan
