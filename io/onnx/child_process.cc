#include "io/onnx/child_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "fmt/format.h"

namespace memplan {
namespace {

bool WriteAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

absl::StatusOr<std::string> RunInChildProcess(const std::function<std::string()>& work) {
  int fds[2];
  if (::pipe(fds) != 0)
    return absl::InternalError(fmt::format("pipe failed: {}", std::strerror(errno)));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return absl::InternalError(fmt::format("fork failed: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    ::close(fds[0]);
    const bool sent = WriteAll(fds[1], work());
    ::close(fds[1]);
    ::_exit(sent ? 0 : 1);
  }
  ::close(fds[1]);
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return absl::InternalError(fmt::format("waitpid failed: {}", std::strerror(errno)));
  }
  if (WIFSIGNALED(status)) {
    return absl::InternalError(
        fmt::format("child process terminated by signal {}", WTERMSIG(status)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(
        fmt::format("child process exited with status {}", WEXITSTATUS(status)));
  }
  return bytes;
}

}  // namespace memplan
