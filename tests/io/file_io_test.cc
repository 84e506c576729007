#include "io/file_io.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace memplan {
namespace {

// A fresh directory under the test temp dir, removed afterwards.
class FileIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "/memplan_file_io_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(FileIoTest, ReadsWhatWasWritten) {
  const std::string path = dir_ + "/plan.json";
  const std::string contents("a\0b\nline two", 12);
  ASSERT_TRUE(WriteFileAtomically(path, contents).ok());
  absl::StatusOr<std::string> read = ReadFile(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, contents);
}

TEST_F(FileIoTest, ReadsAnEmptyFile) {
  const std::string path = dir_ + "/empty";
  std::ofstream(path).close();
  absl::StatusOr<std::string> read = ReadFile(path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "");
}

TEST_F(FileIoTest, MissingFileIsAnError) {
  const std::string path = dir_ + "/missing.csv";
  absl::StatusOr<std::string> read = ReadFile(path);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(read.status().message(), path + ": error: cannot read file: No such file or directory");
}

TEST_F(FileIoTest, DirectoryIsAnError) {
  absl::StatusOr<std::string> read = ReadFile(dir_);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(read.status().message(), dir_ + ": error: cannot read file: Is a directory");
}

TEST_F(FileIoTest, ReplacesAnExistingFileAndLeavesNoTemporary) {
  const std::string path = dir_ + "/out.svg";
  ASSERT_TRUE(WriteFileAtomically(path, "old contents that are longer").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  EXPECT_EQ(*ReadFile(path), "new");
  int entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename(), "out.svg");
    ++entries;
  }
  EXPECT_EQ(entries, 1);
}

TEST_F(FileIoTest, NewFileGetsUmaskPermissions) {
  const std::string path = dir_ + "/perm";
  const mode_t old = umask(027);
  absl::Status s = WriteFileAtomically(path, "x");
  umask(old);
  ASSERT_TRUE(s.ok());
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST_F(FileIoTest, MissingDirectoryIsAnError) {
  const std::string path = dir_ + "/no/such/dir/plan.json";
  absl::Status s = WriteFileAtomically(path, "x");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), path + ": error: cannot write: No such file or directory");
}

TEST_F(FileIoTest, WritingOverADirectoryFailsAndCleansUp) {
  const std::string path = dir_ + "/sub";
  std::filesystem::create_directory(path);
  absl::Status s = WriteFileAtomically(path, "x");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), path + ": error: cannot write: Is a directory");
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 1);  // only sub/, no temporary left behind
}

}  // namespace
}  // namespace memplan
