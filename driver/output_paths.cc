#include "driver/output_paths.h"

#include <filesystem>

#include "io/file_io.h"
#include "ir/diagnostic.h"

namespace memplan {

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
