// A vector of trivially copyable elements held in one pointer: 8 bytes
// against std::vector's 24. Nothing is allocated while it is empty; size
// and capacity live in the heap block in front of the elements. For the
// per-buffer lists that are empty for almost every buffer (Buffer::gaps,
// windows, values, use_times; PackItem::gaps): at 10^7 buffers each such
// field costs 80 MB instead of 240 MB.
//
// The interface is std::vector's where the code base uses it (iteration,
// indexing, push_back, insert, erase, resize, comparison); it converts to
// std::span, and to std::vector only explicitly (a copy).
//
// Example: CompactVector<StepRange> gaps; gaps.push_back({2, 3});
//          gaps.size() == 1, sizeof(gaps) == 8.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace memplan {

template <typename T>
class CompactVector {
  static_assert(std::is_trivially_copyable_v<T>, "elements are moved with memcpy");
  static_assert(alignof(T) <= 8, "elements follow an 8-byte header");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  CompactVector() = default;
  CompactVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  // From a std::vector (implicit: the lists were std::vectors, and callers
  // still build them as such).
  CompactVector(const std::vector<T>& values) { assign(values.begin(), values.end()); }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  CompactVector(It first, It last) {
    assign(first, last);
  }
  CompactVector(const CompactVector& other) { assign(other.begin(), other.end()); }
  CompactVector(CompactVector&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  CompactVector& operator=(const CompactVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  CompactVector& operator=(CompactVector&& other) noexcept {
    if (this != &other) {
      Free();
      block_ = std::exchange(other.block_, nullptr);
    }
    return *this;
  }
  CompactVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~CompactVector() { Free(); }

  // A copy as a std::vector (explicit: an implicit one would copy silently).
  explicit operator std::vector<T>() const { return std::vector<T>(begin(), end()); }
  operator std::span<const T>() const { return {data(), size()}; }

  size_type size() const { return block_ ? block_->size : 0; }
  size_type capacity() const { return block_ ? block_->capacity : 0; }
  bool empty() const { return size() == 0; }
  static constexpr size_type max_size() { return std::numeric_limits<std::uint32_t>::max(); }

  T* data() { return block_ ? Elements() : nullptr; }
  const T* data() const { return block_ ? Elements() : nullptr; }
  iterator begin() { return data(); }
  iterator end() { return data() + size(); }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size(); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  T& operator[](size_type i) { return data()[i]; }
  const T& operator[](size_type i) const { return data()[i]; }
  T& at(size_type i) {
    if (i >= size()) throw std::out_of_range("CompactVector::at");
    return data()[i];
  }
  const T& at(size_type i) const {
    if (i >= size()) throw std::out_of_range("CompactVector::at");
    return data()[i];
  }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size() - 1]; }
  const T& back() const { return data()[size() - 1]; }

  void reserve(size_type n) {
    if (n > capacity()) Grow(n);
  }
  void shrink_to_fit() {
    if (empty()) {
      Free();
    } else if (size() < capacity()) {
      Reallocate(size());
    }
  }
  void clear() {
    if (block_) block_->size = 0;
  }
  void push_back(const T& value) {
    const T copy = value;  // `value` may be an element that Grow moves
    if (size() == capacity()) Grow(size() + 1);
    Elements()[block_->size++] = copy;
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    push_back(T{std::forward<Args>(args)...});
    return back();
  }
  void pop_back() { --block_->size; }
  void resize(size_type n) { resize(n, T{}); }
  void resize(size_type n, const T& value) {
    const T copy = value;
    const size_type old = size();
    if (n > capacity()) Grow(n);
    if (block_ == nullptr) return;  // n == 0 on an empty vector
    for (size_type i = old; i < n; ++i) Elements()[i] = copy;
    block_->size = static_cast<std::uint32_t>(n);
  }
  template <typename It>
  void assign(It first, It last) {
    const auto n = static_cast<size_type>(std::distance(first, last));
    clear();
    if (n == 0) return;
    if (n > capacity()) Grow(n);
    std::copy(first, last, Elements());
    block_->size = static_cast<std::uint32_t>(n);
  }
  void assign(size_type n, const T& value) {
    clear();
    resize(n, value);
  }

  // Inserts before `pos`; returns an iterator to the first inserted element.
  iterator insert(const_iterator pos, const T& value) { return insert(pos, &value, &value + 1); }
  iterator insert(const_iterator pos, std::initializer_list<T> values) {
    return insert(pos, values.begin(), values.end());
  }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  iterator insert(const_iterator pos, It first, It last) {
    const auto at = static_cast<size_type>(pos - begin());
    // Copied first: the range may lie in this vector, which may move.
    const std::vector<T> values(first, last);
    if (values.empty()) return begin() + at;
    const size_type old = size();
    if (old + values.size() > capacity()) Grow(old + values.size());
    T* e = Elements();
    std::memmove(static_cast<void*>(e + at + values.size()), e + at, (old - at) * sizeof(T));
    std::copy(values.begin(), values.end(), e + at);
    block_->size = static_cast<std::uint32_t>(old + values.size());
    return e + at;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto at = static_cast<size_type>(first - begin());
    const auto count = static_cast<size_type>(last - first);
    if (count == 0) return begin() + at;
    T* e = Elements();
    std::memmove(static_cast<void*>(e + at), e + at + count, (size() - at - count) * sizeof(T));
    block_->size -= static_cast<std::uint32_t>(count);
    return e + at;
  }
  void swap(CompactVector& other) noexcept { std::swap(block_, other.block_); }

  friend bool operator==(const CompactVector& a, const CompactVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const CompactVector& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  struct alignas(8) Header {
    std::uint32_t size;
    std::uint32_t capacity;
  };
  static_assert(sizeof(Header) == 8);

  T* Elements() { return reinterpret_cast<T*>(block_ + 1); }
  const T* Elements() const { return reinterpret_cast<const T*>(block_ + 1); }

  // Room for at least `n` elements (n > capacity): doubles, as std::vector.
  void Grow(size_type n) {
    if (n > max_size()) throw std::length_error("CompactVector: too many elements");
    const size_type doubled = std::min<size_type>(max_size(), 2 * capacity());
    Reallocate(std::max(n, doubled));
  }
  void Reallocate(size_type capacity) {
    auto* block = static_cast<Header*>(::operator new(sizeof(Header) + capacity * sizeof(T)));
    block->size = static_cast<std::uint32_t>(size());
    block->capacity = static_cast<std::uint32_t>(capacity);
    if (block_ != nullptr) {
      std::memcpy(static_cast<void*>(block + 1), Elements(), size() * sizeof(T));
      ::operator delete(block_);
    }
    block_ = block;
  }
  void Free() {
    ::operator delete(block_);
    block_ = nullptr;
  }

  Header* block_ = nullptr;
};

}  // namespace memplan
