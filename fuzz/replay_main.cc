// A main() for the fuzz targets in builds without libFuzzer (GCC, the normal
// and ASan/UBSan builds of `make test`): replays every file of the given
// corpus folders through LLVMFuzzerTestOneInput, then runs a fixed number of
// mutants of them (bit flips, byte changes, insertions, deletions, copies,
// boundary numbers spliced in). The mutants come from a fixed seed, so a run
// is reproducible; a failing one is written to the working directory as
// `crash-<target>-<n>` before the target aborts.
//
//   memplan_fuzz_text_ir [--mutants N] [--seed S] CORPUS_DIR_OR_FILE...
//
// Not coverage-guided: `make fuzz` builds the same targets with libFuzzer for
// real fuzzing; this keeps them compiled and exercised in every test run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

// splitmix64: a small, well-mixed, seedable generator.
struct ReplayRandom {
  std::uint64_t state;
  std::uint64_t Next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t Below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(Next() % n); }
};

// Text that tends to sit on a boundary of some parser or planner rule.
constexpr std::string_view kSplices[] = {
    "9223372036854775807", "9223372036854775808", "4611686018427387904", "4294967296",
    "-1", "0", "18446744073709551615", "1e308", "nan", "}", "{", "(", ")", "[", "]", ",",
    "\"", "%", "@", ":", "tied(", "view(", "\xff", std::string_view("\0", 1), "\n"};

void Mutate(std::string& bytes, ReplayRandom& random) {
  const std::size_t steps = 1 + random.Below(4);
  for (std::size_t s = 0; s < steps; ++s) {
    const std::size_t at = random.Below(bytes.size() + 1);
    switch (random.Below(7)) {
      case 0:  // flip one bit
        if (!bytes.empty()) bytes[std::min(at, bytes.size() - 1)] ^= static_cast<char>(1 << random.Below(8));
        break;
      case 1:  // set one byte
        if (!bytes.empty()) bytes[std::min(at, bytes.size() - 1)] = static_cast<char>(random.Below(256));
        break;
      case 2:  // insert a byte
        bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(random.Below(256)));
        break;
      case 3: {  // delete a run
        const std::size_t n = std::min(bytes.size() - std::min(at, bytes.size()), 1 + random.Below(16));
        bytes.erase(std::min(at, bytes.size()), n);
        break;
      }
      case 4: {  // duplicate a run elsewhere
        if (bytes.empty()) break;
        const std::size_t from = random.Below(bytes.size());
        const std::size_t n = std::min(bytes.size() - from, 1 + random.Below(32));
        const std::string run = bytes.substr(from, n);
        bytes.insert(std::min(at, bytes.size()), run);
        break;
      }
      case 5: {  // splice in a boundary token
        const std::string_view token = kSplices[random.Below(std::size(kSplices))];
        bytes.insert(std::min(at, bytes.size()), token);
        break;
      }
      default:  // truncate
        bytes.resize(std::min(at, bytes.size()));
        break;
    }
  }
}

std::string ReadWhole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every regular file under `root` (or `root` itself), sorted by path.
void CollectFiles(const std::filesystem::path& root, std::vector<std::filesystem::path>& files) {
  if (std::filesystem::is_regular_file(root)) {
    files.push_back(root);
    return;
  }
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  files.insert(files.end(), found.begin(), found.end());
}

int RunOne(const std::string& bytes, const std::string& crash_name) {
  // Written before the run and removed after it: if the target aborts, the
  // input that killed it is left behind.
  {
    std::ofstream out(crash_name, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  std::remove(crash_name.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::size_t mutants = 0;
  std::uint64_t seed = 1;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--mutants" && i + 1 < argc) {
      mutants = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::filesystem::exists(arg)) {
      CollectFiles(arg, files);
    } else {
      std::fprintf(stderr, "%s: no such corpus file or folder: %s\n", argv[0], argv[i]);
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s [--mutants N] [--seed S] CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  const std::string target = std::filesystem::path(argv[0]).filename().string();
  std::vector<std::string> corpus;
  for (const auto& file : files) corpus.push_back(ReadWhole(file));
  for (std::size_t i = 0; i < corpus.size(); ++i) RunOne(corpus[i], "crash-" + target + "-corpus");
  ReplayRandom random{seed};
  for (std::size_t n = 0; n < mutants; ++n) {
    std::string bytes = corpus[random.Below(corpus.size())];
    Mutate(bytes, random);
    RunOne(bytes, "crash-" + target + "-mutant");
  }
  std::printf("%s: %zu corpus inputs and %zu mutants ran clean\n", target.c_str(), corpus.size(), mutants);
  return 0;
}
