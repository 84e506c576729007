#include "io/file_io.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

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

TEST_F(FileIoTest, ReplacingAFileKeepsItsPermissions) {
  const std::string path = dir_ + "/perm";
  std::ofstream(path) << "old";
  ASSERT_EQ(chmod(path.c_str(), 0604), 0);
  std::filesystem::create_symlink("perm", dir_ + "/link");
  const mode_t old = umask(077);
  absl::Status direct = WriteFileAtomically(path, "new");
  absl::Status through_link = WriteFileAtomically(dir_ + "/link", "newer");
  umask(old);
  ASSERT_TRUE(direct.ok()) << direct;
  ASSERT_TRUE(through_link.ok()) << through_link;
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0604u);
  EXPECT_EQ(*ReadFile(path), "newer");
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

// Counts the entries of `dir` (to see that no temporary is left).
int EntriesIn(const std::string& dir) {
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
  return entries;
}

TEST_F(FileIoTest, ASymlinkIsFollowedAndKept) {
  std::filesystem::create_directory(dir_ + "/real");
  {
    std::ofstream(dir_ + "/real/plan.json") << "old";
  }
  std::filesystem::create_symlink("real/plan.json", dir_ + "/link.json");
  // A link to a link, and a dangling link whose target is created.
  std::filesystem::create_symlink("link.json", dir_ + "/link2.json");
  std::filesystem::create_symlink("real/new.json", dir_ + "/dangling.json");
  ASSERT_TRUE(WriteFilesAtomically({{dir_ + "/link2.json", "new"},
                                    {dir_ + "/dangling.json", "created"}})
                  .ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ + "/link.json"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ + "/link2.json"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ + "/dangling.json"));
  EXPECT_EQ(*ReadFile(dir_ + "/real/plan.json"), "new");
  EXPECT_EQ(*ReadFile(dir_ + "/real/new.json"), "created");
  EXPECT_EQ(EntriesIn(dir_ + "/real"), 2);  // no temporary in the target's directory
  EXPECT_EQ(EntriesIn(dir_), 4);            // real/ and the three links
}

TEST_F(FileIoTest, ASymlinkLoopIsAnError) {
  std::filesystem::create_symlink("b", dir_ + "/a");
  std::filesystem::create_symlink("a", dir_ + "/b");
  absl::Status s = WriteFileAtomically(dir_ + "/a", "x");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), dir_ + "/a: error: cannot write: Too many levels of symbolic links");
  EXPECT_EQ(EntriesIn(dir_), 2);
}

TEST_F(FileIoTest, AFifoIsWrittenDirectly) {
  const std::string fifo = dir_ + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    if (fd < 0) return;
    char buffer[256];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0) received.append(buffer, n);
    ::close(fd);
  });
  absl::Status s = WriteFilesAtomically({{fifo, "through the pipe"}, {dir_ + "/plain", "file"}});
  // Release the reader if the FIFO was never opened (the test then fails).
  const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (unblock >= 0) ::close(unblock);
  reader.join();
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(received, "through the pipe");
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_EQ(*ReadFile(dir_ + "/plain"), "file");
  EXPECT_EQ(EntriesIn(dir_), 2);
}

TEST_F(FileIoTest, AFailedWriteLeavesTheFifoUnopened) {
  // The directory output fails before any special file is opened: no reader
  // is needed, and the write does not block.
  const std::string fifo = dir_ + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_directory(dir_ + "/sub");
  absl::Status s = WriteFilesAtomically({{fifo, "x"}, {dir_ + "/sub", "y"}});
  EXPECT_EQ(s.message(), dir_ + "/sub: error: cannot write: Is a directory");
  EXPECT_EQ(EntriesIn(dir_), 2);
}

// A file made piece by piece is written as its pieces joined; a producer
// that fails leaves every file as it was, with no temporary behind.
TEST_F(FileIoTest, AProducedFileIsWrittenPieceByPiece) {
  const std::string produced = dir_ + "/produced.json", whole = dir_ + "/whole.txt";
  ASSERT_TRUE(WriteFileAtomically(produced, "old").ok());
  const auto pieces = [](TextSink sink) -> absl::Status {
    for (int i = 0; i < 3; ++i) {
      if (absl::Status s = sink("piece" + std::to_string(i) + ";"); !s.ok()) return s;
    }
    return absl::OkStatus();
  };
  ASSERT_TRUE(WriteOutputsAtomically({OutputFile{produced, "", pieces}, OutputFile{whole, "w"}}).ok());
  EXPECT_EQ(*ReadFile(produced), "piece0;piece1;piece2;");
  EXPECT_EQ(*ReadFile(whole), "w");

  const auto failing = [](TextSink sink) -> absl::Status {
    if (absl::Status s = sink("partial"); !s.ok()) return s;
    return absl::InternalError("cannot render");
  };
  absl::Status s = WriteOutputsAtomically({OutputFile{whole, "new"}, OutputFile{produced, "", failing}});
  EXPECT_EQ(s, absl::InternalError("cannot render"));
  EXPECT_EQ(*ReadFile(produced), "piece0;piece1;piece2;");
  EXPECT_EQ(*ReadFile(whole), "w");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 2u);  // no temporary left
}

TEST(ChunkedTextTest, PassesWholeChunksThenTheRest) {
  std::vector<std::string> pieces;
  const auto record = [&](std::string_view piece) {
    pieces.emplace_back(piece);
    return absl::OkStatus();
  };
  ChunkedText out(record, 4);
  ASSERT_TRUE(out.Append("ab").ok());
  EXPECT_TRUE(pieces.empty());
  ASSERT_TRUE(out.Append("cde").ok());
  out.text() += "f";
  ASSERT_TRUE(out.Pass().ok());  // below a chunk: kept
  ASSERT_TRUE(out.Flush().ok());
  EXPECT_EQ(pieces, (std::vector<std::string>{"abcde", "f"}));
  ASSERT_TRUE(out.Flush().ok());  // nothing left: nothing passed
  EXPECT_EQ(pieces.size(), 2u);
}

}  // namespace
}  // namespace memplan
