// A vector of trivially copyable elements that holds up to N of them in
// place and more on the heap: for lists that almost always have N elements,
// such as a placement's allocations (one per buffer without fast memory).
// SmallVector<Allocation, 1> takes 40 bytes and no heap block, against
// std::vector's 24 bytes plus a 32-byte block (48 with malloc's header): at
// 10^7 buffers 400 MB instead of 720 MB.
//
// The interface is std::vector's where the code base uses it (iteration,
// indexing, push_back, insert, erase, resize, comparison); it converts to
// std::span. It does not convert to std::vector implicitly: that would copy
// silently.
//
// Example: SmallVector<int, 1> v = {7}; (no heap) v.push_back(8); (heap)
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

template <typename T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "elements are moved with memcpy");
  static_assert(N >= 1);

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  SmallVector() = default;
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  explicit SmallVector(const std::vector<T>& values) { assign(values.begin(), values.end()); }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { Take(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      Free();
      Take(other);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~SmallVector() { Free(); }

  operator std::span<const T>() const { return {data(), size()}; }
  operator std::span<T>() { return {data(), size()}; }

  size_type size() const { return size_; }
  size_type capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  static constexpr size_type max_size() { return std::numeric_limits<std::uint32_t>::max(); }

  T* data() { return OnHeap() ? heap_ : reinterpret_cast<T*>(inline_); }
  const T* data() const { return OnHeap() ? heap_ : reinterpret_cast<const T*>(inline_); }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  T& operator[](size_type i) { return data()[i]; }
  const T& operator[](size_type i) const { return data()[i]; }
  T& at(size_type i) {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return data()[i];
  }
  const T& at(size_type i) const {
    if (i >= size_) throw std::out_of_range("SmallVector::at");
    return data()[i];
  }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void reserve(size_type n) {
    if (n > capacity_) Grow(n);
  }
  void clear() { size_ = 0; }
  void push_back(const T& value) {
    const T copy = value;  // `value` may be an element that Grow moves
    if (size_ == capacity_) Grow(size_ + 1);
    data()[size_++] = copy;
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    push_back(T{std::forward<Args>(args)...});
    return back();
  }
  void pop_back() { --size_; }
  void resize(size_type n) { resize(n, T{}); }
  void resize(size_type n, const T& value) {
    const T copy = value;
    if (n > capacity_) Grow(n);
    for (size_type i = size_; i < n; ++i) data()[i] = copy;
    size_ = static_cast<std::uint32_t>(n);
  }
  template <typename It>
  void assign(It first, It last) {
    const auto n = static_cast<size_type>(std::distance(first, last));
    // Copied first: the range may lie in this vector.
    const std::vector<T> values(first, last);
    clear();
    if (n > capacity_) Grow(n);
    std::copy(values.begin(), values.end(), data());
    size_ = static_cast<std::uint32_t>(n);
  }

  // Inserts before `pos`; returns an iterator to the first inserted element.
  iterator insert(const_iterator pos, const T& value) { return insert(pos, &value, &value + 1); }
  iterator insert(const_iterator pos, std::initializer_list<T> values) {
    return insert(pos, values.begin(), values.end());
  }
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  iterator insert(const_iterator pos, It first, It last) {
    const auto at = static_cast<size_type>(pos - begin());
    const std::vector<T> values(first, last);  // the range may lie in this vector
    if (values.empty()) return begin() + at;
    if (size_ + values.size() > capacity_) Grow(size_ + values.size());
    T* e = data();
    std::memmove(static_cast<void*>(e + at + values.size()), e + at, (size_ - at) * sizeof(T));
    std::copy(values.begin(), values.end(), e + at);
    size_ += static_cast<std::uint32_t>(values.size());
    return e + at;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto at = static_cast<size_type>(first - begin());
    const auto count = static_cast<size_type>(last - first);
    T* e = data();
    if (count > 0) {
      std::memmove(static_cast<void*>(e + at), e + at + count, (size_ - at - count) * sizeof(T));
      size_ -= static_cast<std::uint32_t>(count);
    }
    return e + at;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const SmallVector& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool OnHeap() const { return capacity_ > N; }
  // Room for at least `n` elements (n > capacity): doubles, as std::vector.
  void Grow(size_type n) {
    if (n > max_size()) throw std::length_error("SmallVector: too many elements");
    const size_type capacity =
        std::max(n, std::min<size_type>(max_size(), 2 * static_cast<size_type>(capacity_)));
    T* heap = static_cast<T*>(::operator new(capacity * sizeof(T)));
    std::memcpy(static_cast<void*>(heap), data(), size_ * sizeof(T));
    if (OnHeap()) ::operator delete(heap_);
    heap_ = heap;
    capacity_ = static_cast<std::uint32_t>(capacity);
  }
  void Free() {
    if (OnHeap()) ::operator delete(heap_);
    size_ = 0;
    capacity_ = N;
  }
  // Moves `other`'s elements here (this holds none) and leaves it empty.
  void Take(SmallVector& other) {
    if (other.OnHeap()) {
      heap_ = other.heap_;
    } else {
      std::memcpy(inline_, other.inline_, other.size_ * sizeof(T));
    }
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.size_ = 0;
    other.capacity_ = N;
  }

  union {
    alignas(T) unsigned char inline_[N * sizeof(T)];
    T* heap_;
  };
  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = N;  // above N: the elements are on the heap
};

}  // namespace memplan
