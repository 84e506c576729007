#include "schedule/lower_bound.h"

#include <algorithm>
#include <vector>

namespace memplan {
namespace {

using Word = std::uint64_t;

// Square bit matrix: row u holds a bit per unit.
class BitMatrix {
 public:
  explicit BitMatrix(std::int32_t n) : words_((n + 63) / 64), bits_(static_cast<std::size_t>(n) * words_, 0) {}
  Word* Row(std::int32_t u) { return bits_.data() + static_cast<std::size_t>(u) * words_; }
  void Set(std::int32_t u, std::int32_t v) { Row(u)[v / 64] |= Word{1} << (v % 64); }
  void OrInto(std::int32_t to, std::int32_t from) {
    Word* t = Row(to);
    const Word* f = Row(from);
    for (std::size_t w = 0; w < words_; ++w) t[w] |= f[w];
  }
  std::size_t words() const { return words_; }

 private:
  std::size_t words_;
  std::vector<Word> bits_;
};

bool Has(const std::vector<Word>& row, std::int32_t v) { return (row[v / 64] >> (v % 64)) & 1; }

}  // namespace

Bytes OrderLowerBound(const OrderProblem& p) {
  const std::int32_t n = p.size();
  if (n == 0) return 0;
  const std::size_t m = p.set_bytes.size();
  std::vector<Bytes> at(n, 0);
  for (std::int32_t u = 0; u < n; ++u) {
    at[u] = p.scratch[u];
    for (std::int32_t s : p.touches[u]) at[u] += p.set_bytes[s];
  }
  Bytes always = 0;
  for (std::size_t s = 0; s < m; ++s) {
    if (p.live_in[s] && p.live_out[s]) always += p.set_bytes[s];
  }
  if (n <= kBoundMaxUnits) {
    // desc[u]: units reachable from u (u excluded); anc[u]: units reaching u.
    // The input order is topological, so one pass each way suffices.
    BitMatrix desc(n);
    BitMatrix anc(n);
    for (std::int32_t u = n - 1; u >= 0; --u) {
      for (std::int32_t v : p.succs[u]) {
        desc.Set(u, v);
        desc.OrInto(u, v);
      }
    }
    for (std::int32_t u = 0; u < n; ++u) {
      for (std::int32_t q : p.preds[u]) {
        anc.Set(u, q);
        anc.OrInto(u, q);
      }
    }
    // Per set: after[v] = some toucher is an ancestor of v (v in the union
    // of the touchers' descendants); before[v] = some toucher a descendant.
    std::vector<std::vector<std::int32_t>> touchers(m);
    for (std::int32_t u = 0; u < n; ++u) {
      for (std::int32_t s : p.touches[u]) touchers[s].push_back(u);
    }
    const std::size_t words = desc.words();
    std::vector<Word> after(words);
    std::vector<Word> before(words);
    for (std::size_t s = 0; s < m; ++s) {
      if (p.live_in[s] && p.live_out[s]) continue;
      std::fill(after.begin(), after.end(), 0);
      std::fill(before.begin(), before.end(), 0);
      for (std::int32_t u : touchers[s]) {
        const Word* d = desc.Row(u);
        const Word* a = anc.Row(u);
        for (std::size_t w = 0; w < words; ++w) {
          after[w] |= d[w];
          before[w] |= a[w];
        }
      }
      for (std::int32_t v = 0; v < n; ++v) {
        if (std::binary_search(p.touches[v].begin(), p.touches[v].end(), static_cast<std::int32_t>(s))) {
          continue;  // counted already
        }
        const bool live = (Has(after, v) || p.live_in[s]) && (Has(before, v) || p.live_out[s]);
        if (live) at[v] += p.set_bytes[s];
      }
    }
  }
  Bytes bound = 0;
  for (std::int32_t u = 0; u < n; ++u) {
    // Sets touched by u that hold a parameter and a result are in at[u] and `always`.
    Bytes both_touched = 0;
    for (std::int32_t s : p.touches[u]) {
      if (p.live_in[s] && p.live_out[s]) both_touched += p.set_bytes[s];
    }
    bound = std::max(bound, at[u] + always - both_touched);
  }
  return bound;
}

}  // namespace memplan
