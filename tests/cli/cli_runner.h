// Runs the memplan binary in tests and captures exit code, stdout and stderr.
// Each run uses its own temporary files, so tests may run in parallel.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/temp_cleanup.h"

namespace memplan::testing_cli {

// The bundled examples/mlp.mpir, the input of many CLI tests.
inline const std::string kMlp = MEMPLAN_SOURCE_DIR "/examples/mlp.mpir";

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh, empty directory for one test's files.
inline std::string FreshDir() {
  std::string pattern = ::testing::TempDir() + "/memplan_cli_XXXXXX";
  char* made = mkdtemp(pattern.data());
  EXPECT_NE(made, nullptr);
  TempCleanup::Register(pattern);
  return pattern;
}

inline void WriteText(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
}

// Runs the shell command `prefix memplan ARGS` (ARGS unquoted), capturing its
// exit code and output in private temporary files.
inline CliRun RunMemplan(const std::string& prefix, const std::string& args) {
  const std::string dir = FreshDir();
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const int status = std::system(
      (prefix + std::string(MEMPLAN_BINARY) + " " + args + " >" + out + " 2>" + err).c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  std::filesystem::remove_all(dir);
  return r;
}

// Runs `memplan ARGS` in the current directory.
inline CliRun Memplan(const std::string& args) { return RunMemplan("", args); }

// Runs `memplan ARGS` with `dir` as the working directory, so relative paths
// in ARGS resolve there.
inline CliRun MemplanIn(const std::string& dir, const std::string& args) {
  return RunMemplan("cd '" + dir + "' && ", args);
}

}  // namespace memplan::testing_cli
