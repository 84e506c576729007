#include "io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <optional>
#include <vector>

#include "ir/diagnostic.h"

namespace memplan {
namespace {

absl::Status IoError(const std::string& path, const char* action, int error) {
  // An empty argument ("" from a script's unset variable) has no name to show.
  if (path.empty()) {
    return absl::InvalidArgumentError(std::string("memplan: error: ") + action +
                                      ": the file name is empty");
  }
  return LocatedError(path, SourceLocation{}, std::string(action) + ": " + std::strerror(error));
}

// Closes `fd` on every path out of a scope.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Closes now, reporting the error (close can fail on delayed write errors).
  int Close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

// The process umask. Reading it means setting it; the CLI is single-threaded
// when it writes outputs, so the brief change is invisible.
mode_t CurrentUmask() {
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return mask;
}

// The size of the regular file at `path`; nullopt for anything else (or
// when it cannot be read: the read reports why).
std::optional<std::size_t> RegularFileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) return std::nullopt;
  return static_cast<std::size_t>(st.st_size);
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::string contents;
  if (const std::optional<std::size_t> size = RegularFileSize(path); size && *size > 0) {
    contents.reserve(*size);
  }
  absl::Status s = ReadFileInChunks(path, 1 << 16, [&](std::string_view chunk) {
    contents.append(chunk);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return contents;
}

absl::Status ReadFileInChunks(const std::string& path, std::size_t chunk_bytes,
                              absl::FunctionRef<absl::Status(std::string_view)> consume) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError(path, "cannot read file", errno);
  FdCloser closer(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) return IoError(path, "cannot read file", errno);
  if (S_ISDIR(st.st_mode)) return IoError(path, "cannot read file", EISDIR);
  std::vector<char> chunk(std::max<std::size_t>(1, chunk_bytes));
  while (true) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError(path, "cannot read file", errno);
    }
    if (n == 0) return absl::OkStatus();
    if (absl::Status s = consume(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
        !s.ok()) {
      return s;
    }
  }
}

absl::StatusOr<std::string> FollowLinks(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {  // 40: Linux's own limit (ELOOP)
    struct stat st;
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
    std::string target(static_cast<size_t>(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
    const ssize_t n = ::readlink(current.c_str(), target.data(), target.size());
    if (n < 0) return IoError(path, "cannot write", errno);
    target.resize(static_cast<size_t>(n));
    const size_t slash = current.rfind('/');
    if (target.starts_with('/') || slash == std::string::npos) {
      current = target;
    } else {
      current = current.substr(0, slash + 1) + target;
    }
  }
  return IoError(path, "cannot write", ELOOP);
}

namespace {

// Writes all of `text` to `fd`; the errno of a failure, else 0.
int WriteAll(int fd, std::string_view text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    written += static_cast<size_t>(n);
  }
  return 0;
}

// Writes `file`'s text (whole or produced) to `fd`. Errors: a write's, as
// `shown: error: cannot write: <reason>`, or the producer's own.
absl::Status WriteText(const std::string& shown, int fd, const OutputFile& file) {
  if (!file.produce) {
    if (const int error = WriteAll(fd, file.contents); error != 0) {
      return IoError(shown, "cannot write", error);
    }
    return absl::OkStatus();
  }
  return file.produce([&](std::string_view piece) -> absl::Status {
    if (const int error = WriteAll(fd, piece); error != 0) return IoError(shown, "cannot write", error);
    return absl::OkStatus();
  });
}

// Writes `file`'s text to a new temporary file beside `path`, flushed to disk;
// returns the temporary's path, with permission bits `mode`. Errors name `shown` (the path as given). On error
// nothing is left behind.
absl::StatusOr<std::string> WriteTemporary(const std::string& shown, const std::string& path,
                                           const OutputFile& file, mode_t mode) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "." + base + ".tmp.XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return IoError(shown, "cannot write", errno);
  FdCloser closer(fd);
  auto fail = [&](int error) {
    ::unlink(temp.c_str());
    return IoError(shown, "cannot write", error);
  };
  if (::fchmod(fd, mode) != 0) return fail(errno);
  if (absl::Status s = WriteText(shown, fd, file); !s.ok()) {
    ::unlink(temp.c_str());
    return s;
  }
  if (::fsync(fd) != 0) return fail(errno);
  if (closer.Close() != 0) return fail(errno);
  return temp;
}


// Writes `contents` straight into the existing special file `path` (a
// character device, FIFO or socket): such files cannot be replaced by a
// rename, and writing them is not atomic.
absl::Status WriteDirectly(const std::string& shown, const std::string& path,
                           const OutputFile& file) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return IoError(shown, "cannot write", errno);
  FdCloser closer(fd);
  if (absl::Status s = WriteText(shown, fd, file); !s.ok()) return s;
  if (closer.Close() != 0) return IoError(shown, "cannot write", errno);
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  return WriteOutputsAtomically({OutputFile{path, std::string(contents)}});
}

absl::Status WriteFilesAtomically(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<OutputFile> outputs;
  outputs.reserve(files.size());
  for (const auto& [path, contents] : files) outputs.push_back(OutputFile{path, contents});
  return WriteOutputsAtomically(outputs);
}

absl::Status WriteOutputsAtomically(const std::vector<OutputFile>& files) {
  // Per file: the path written after following links, and the temporary
  // to rename over it (empty for special files, written directly).
  std::vector<std::string> targets, temps;
  const auto remove_temps = [&] {
    for (const std::string& t : temps) {
      if (!t.empty()) ::unlink(t.c_str());
    }
  };
  for (const OutputFile& file : files) {
    const std::string& path = file.path;
    // A special file reached through links the path cannot spell (e.g.
    // /dev/stdout -> /proc/self/fd/1 -> pipe:[N]) is written as given.
    struct stat given;
    if (::stat(path.c_str(), &given) == 0 && !S_ISREG(given.st_mode) && !S_ISDIR(given.st_mode)) {
      targets.push_back(path);
      temps.emplace_back();
      continue;
    }
    absl::StatusOr<std::string> target = FollowLinks(path);
    if (!target.ok()) {
      remove_temps();
      return target.status();
    }
    struct stat st;
    const bool exists = ::stat(target->c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
      remove_temps();
      return IoError(path, "cannot write", EISDIR);
    }
    targets.push_back(*target);
    if (exists && !S_ISREG(st.st_mode)) {
      temps.emplace_back();
      continue;
    }
    // A replaced file keeps its permissions; a new one gets the default.
    const mode_t mode = exists ? st.st_mode & 07777 : 0666 & ~CurrentUmask();
    absl::StatusOr<std::string> temp = WriteTemporary(path, *target, file, mode);
    if (!temp.ok()) {
      remove_temps();
      return temp.status();
    }
    temps.push_back(*std::move(temp));
  }
  // Special files first: their writes can fail midway and cannot be undone,
  // and until the renames no regular file has changed.
  for (size_t i = 0; i < files.size(); ++i) {
    if (!temps[i].empty()) continue;
    if (absl::Status s = WriteDirectly(files[i].path, targets[i], files[i]); !s.ok()) {
      remove_temps();
      return s;
    }
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (temps[i].empty()) continue;
    if (::rename(temps[i].c_str(), targets[i].c_str()) != 0) {
      const int error = errno;
      for (size_t j = i; j < temps.size(); ++j) {
        if (!temps[j].empty()) ::unlink(temps[j].c_str());
      }
      return IoError(files[i].path, "cannot write", error);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOutputPath(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
    return LocatedError(path, SourceLocation{},
                        "cannot write: directory '" + parent.string() + "' does not exist");
  }
  if (std::filesystem::is_directory(path, ec)) {
    return LocatedError(path, SourceLocation{}, "cannot write: Is a directory");
  }
  return absl::OkStatus();
}

// weakly_canonical leaves a relative path that does not exist as it is, so
// the paths are made absolute first.
bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) {
    return std::filesystem::equivalent(a, b, ec);
  }
  const auto normal = [&ec](const std::string& path) {
    const std::filesystem::path absolute =
        std::filesystem::absolute(FollowLinks(path).value_or(path), ec);
    return ec ? absolute : std::filesystem::weakly_canonical(absolute, ec);
  };
  const std::filesystem::path ca = normal(a);
  if (ec) return a == b;
  const std::filesystem::path cb = normal(b);
  if (ec) return a == b;
  return ca == cb;
}

}  // namespace memplan
