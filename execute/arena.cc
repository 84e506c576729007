#include "execute/arena.h"

#include <algorithm>
#include <cstring>

namespace memplan {

namespace {

// Bytes compared or written per memcmp/memcpy call.
constexpr Bytes kPatternBlock = 64 * 1024;

// SplitMix64's finaliser: distinct writers get unrelated words.
std::uint64_t MixWriterId(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// `length` (<= kPatternBlock) + 8 bytes of `tag` repeated, starting with byte 0 of the tag.
const std::uint8_t* PatternBlock(std::uint64_t tag, Bytes length) {
  thread_local std::vector<std::uint8_t> block;
  thread_local std::uint64_t block_tag = 0;
  const std::size_t need = static_cast<std::size_t>(std::min(length, kPatternBlock) + 8);
  if (block_tag != tag || block.size() < need) {
    block.resize(std::max<std::size_t>(need, block.size()));
    for (std::size_t i = 0; i < block.size(); i += 8) {
      std::memcpy(block.data() + i, &tag, std::min<std::size_t>(8, block.size() - i));
    }
    block_tag = tag;
  }
  return block.data();
}

}  // namespace

std::uint64_t WriterTag(std::int64_t writer) {
  const std::uint64_t tag = MixWriterId(static_cast<std::uint64_t>(writer));
  return tag == 0 ? 1 : tag;
}

Arena::Arena(Bytes size) : bytes_(static_cast<std::size_t>(size), 0) {}

void Arena::Fill(Bytes address, Bytes length, Bytes position, std::int64_t writer) {
  if (length <= 0) return;
  const std::uint64_t tag = WriterTag(writer);
  for (Bytes done = 0; done < length;) {
    const Bytes chunk = std::min(kPatternBlock, length - done);
    const std::uint8_t* block = PatternBlock(tag, chunk);
    std::memcpy(bytes_.data() + address + done, block + (position + done) % 8,
                static_cast<std::size_t>(chunk));
    done += chunk;
  }
  SetShadow(address, address + length, writer);
}

std::optional<Bytes> Arena::FirstMismatch(Bytes address, Bytes length, Bytes position,
                                          std::int64_t writer) const {
  const std::uint64_t tag = WriterTag(writer);
  for (Bytes done = 0; done < length;) {
    const Bytes chunk = std::min(kPatternBlock, length - done);
    const std::uint8_t* expected = PatternBlock(tag, chunk) + (position + done) % 8;
    const std::uint8_t* actual = bytes_.data() + address + done;
    if (std::memcmp(actual, expected, static_cast<std::size_t>(chunk)) != 0) {
      for (Bytes i = 0; i < chunk; ++i) {
        if (actual[i] != expected[i]) return address + done + i;
      }
    }
    done += chunk;
  }
  return std::nullopt;
}

void Arena::CopyFrom(const Arena& source, Bytes from, Bytes to, Bytes length,
                     std::int64_t mover) {
  if (length <= 0) return;
  // The source pieces first: the destination may be the same arena.
  std::vector<std::pair<Bytes, ShadowPiece>> pieces;
  auto it = source.shadow_.upper_bound(from);
  if (it != source.shadow_.begin()) --it;
  for (; it != source.shadow_.end() && it->first < from + length; ++it) {
    const Bytes begin = std::max(it->first, from);
    const Bytes end = std::min(it->second.end, from + length);
    if (begin < end) {
      pieces.push_back({begin - from + to, ShadowPiece{end - from + to, it->second.writer, mover}});
    }
  }
  std::memmove(bytes_.data() + to, source.bytes_.data() + from, static_cast<std::size_t>(length));
  SetShadow(to, to + length, -1);
  for (const auto& [begin, piece] : pieces) SetShadow(begin, piece.end, piece.writer, piece.mover);
}

Arena::Origin Arena::OriginAt(Bytes address) const {
  auto it = shadow_.upper_bound(address);
  if (it == shadow_.begin()) return {};
  --it;
  if (address >= it->second.end) return {};
  return {it->second.writer, it->second.mover};
}

void Arena::SplitShadowAt(Bytes address) {
  auto it = shadow_.upper_bound(address);
  if (it == shadow_.begin()) return;
  --it;
  if (it->first < address && address < it->second.end) {
    const ShadowPiece tail{it->second.end, it->second.writer, it->second.mover};
    it->second.end = address;
    shadow_.emplace(address, tail);
  }
}

void Arena::SetShadow(Bytes begin, Bytes end, std::int64_t writer, std::int64_t mover) {
  if (begin >= end) return;
  SplitShadowAt(begin);
  SplitShadowAt(end);
  shadow_.erase(shadow_.lower_bound(begin), shadow_.lower_bound(end));
  if (writer >= 0) shadow_.emplace(begin, ShadowPiece{end, writer, mover});
}

}  // namespace memplan
