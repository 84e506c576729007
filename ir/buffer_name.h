// A buffer's name in 8 bytes (std::string takes 32): names of up to 7 bytes
// are stored inline, longer ones in a heap block of their own. A lifetime
// CSV's ids 0 to 9,999,999 are all inline, so a 10^7-row CSV allocates no
// string per buffer, and a name is always kept exactly as the input spelled
// it (outputs print the same ids).
//
// It reads as a std::string_view (implicitly; valid while the name lives
// and is not assigned or moved, as a std::string's), compares with strings,
// formats with fmt and prints to streams. str() copies it to a std::string.
//
// Example: BufferName n = "b1"; n == "b1"; n.size() == 2; sizeof(n) == 8.
#pragma once

#include <bit>
#include <compare>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>

#include "fmt/format.h"

namespace memplan {

class BufferName {
 public:
  // The longest name kept inline.
  static constexpr std::size_t kInlineBytes = 7;

  BufferName() = default;
  BufferName(std::string_view name) { Assign(name); }
  BufferName(const std::string& name) { Assign(name); }
  BufferName(const char* name) { Assign(name); }
  BufferName(const BufferName& other) { Assign(other.view()); }
  BufferName(BufferName&& other) noexcept {
    std::memcpy(bytes_, other.bytes_, sizeof(bytes_));
    std::memset(other.bytes_, 0, sizeof(other.bytes_));
  }
  BufferName& operator=(const BufferName& other) {
    if (this != &other) {
      BufferName copy(other);
      Swap(copy);
    }
    return *this;
  }
  BufferName& operator=(BufferName&& other) noexcept {
    if (this != &other) {
      Free();
      std::memcpy(bytes_, other.bytes_, sizeof(bytes_));
      std::memset(other.bytes_, 0, sizeof(other.bytes_));
    }
    return *this;
  }
  BufferName& operator=(std::string_view name) {
    BufferName copy(name);
    Swap(copy);
    return *this;
  }
  BufferName& operator=(const std::string& name) { return *this = std::string_view(name); }
  BufferName& operator=(const char* name) { return *this = std::string_view(name); }
  ~BufferName() { Free(); }

  operator std::string_view() const { return view(); }
  std::string_view view() const {
    if (IsInline()) return {reinterpret_cast<const char*>(bytes_) + kCharsAt, InlineSize()};
    const Heap* heap = HeapBlock();
    return heap == nullptr ? std::string_view() : std::string_view(heap->chars(), heap->size);
  }
  std::string str() const { return std::string(view()); }
  std::size_t size() const { return view().size(); }
  bool empty() const { return size() == 0; }

  friend bool operator==(const BufferName& a, const BufferName& b) { return a.view() == b.view(); }
  friend bool operator==(const BufferName& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const BufferName& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const BufferName& a, const char* b) { return a.view() == b; }
  friend std::strong_ordering operator<=>(const BufferName& a, const BufferName& b) {
    return a.view() <=> b.view();
  }
  friend std::strong_ordering operator<=>(const BufferName& a, std::string_view b) {
    return a.view() <=> b;
  }
  friend std::string operator+(const BufferName& a, std::string_view b) {
    return std::string(a.view()).append(b);
  }
  friend std::string operator+(std::string_view a, const BufferName& b) {
    return std::string(a).append(b.view());
  }
  friend std::string operator+(const BufferName& a, const char* b) {
    return a + std::string_view(b);
  }
  friend std::string operator+(const char* a, const BufferName& b) {
    return std::string_view(a) + b;
  }
  friend std::string operator+(const BufferName& a, const std::string& b) {
    return a + std::string_view(b);
  }
  friend std::string operator+(const std::string& a, const BufferName& b) {
    return std::string_view(a) + b;
  }
  friend std::ostream& operator<<(std::ostream& os, const BufferName& n) { return os << n.view(); }

 private:
  // The heap form: a block holding the size and the bytes. Its address is
  // a multiple of 8, so its lowest bit is 0; the inline form sets that bit
  // in its tag byte (the word's lowest-order byte), with the size above it.
  struct Heap {
    std::size_t size;  // the bytes follow
    const char* chars() const { return reinterpret_cast<const char*>(this + 1); }
    char* chars() { return reinterpret_cast<char*>(this + 1); }
  };
  static constexpr int kTagAt = std::endian::native == std::endian::little ? 0 : 7;
  static constexpr int kCharsAt = kTagAt == 0 ? 1 : 0;
  static_assert(std::endian::native == std::endian::little ||
                std::endian::native == std::endian::big);
  static_assert(sizeof(void*) <= 8);

  bool IsInline() const { return (bytes_[kTagAt] & 1) != 0; }
  std::size_t InlineSize() const { return bytes_[kTagAt] >> 1; }
  const Heap* HeapBlock() const {
    const Heap* heap;
    std::memcpy(&heap, bytes_, sizeof(heap));
    return heap;
  }
  void Assign(std::string_view name) {
    std::memset(bytes_, 0, sizeof(bytes_));
    if (name.empty()) return;
    if (name.size() <= kInlineBytes) {
      bytes_[kTagAt] = static_cast<unsigned char>(1 | (name.size() << 1));
      std::memcpy(bytes_ + kCharsAt, name.data(), name.size());
      return;
    }
    auto* heap = static_cast<Heap*>(::operator new(sizeof(Heap) + name.size()));
    heap->size = name.size();
    std::memcpy(heap->chars(), name.data(), name.size());
    std::memcpy(bytes_, &heap, sizeof(heap));
  }
  void Free() {
    if (!IsInline()) ::operator delete(const_cast<Heap*>(HeapBlock()));
    std::memset(bytes_, 0, sizeof(bytes_));
  }
  void Swap(BufferName& other) noexcept {
    unsigned char t[8];
    std::memcpy(t, bytes_, 8);
    std::memcpy(bytes_, other.bytes_, 8);
    std::memcpy(other.bytes_, t, 8);
  }

  alignas(8) unsigned char bytes_[8] = {};
};

}  // namespace memplan

template <>
struct fmt::formatter<memplan::BufferName> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const memplan::BufferName& name, FormatContext& ctx) const {
    return fmt::formatter<std::string_view>::format(name.view(), ctx);
  }
};
