#pragma once

// The store's arrays, and the tree model's arrays by store node.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

namespace keylens::keyspace::detail {

// A growable array in fixed pages of 2^PageBits elements. Unlike std::vector it never doubles: a store
// of ten million keys wastes at most one page per array instead of up to half its capacity, and
// growing never copies (or briefly doubles) what is already there.
template<typename T, unsigned PageBits = 16> class PagedArray
{
public:
    static constexpr std::size_t PageSize = std::size_t(1) << PageBits;

    T& operator[](std::size_t index) { return m_pages[index >> PageBits][index & (PageSize - 1)]; }
    const T& operator[](std::size_t index) const { return m_pages[index >> PageBits][index & (PageSize - 1)]; }

    void push_back(const T& value)
    {
        if ((m_size >> PageBits) == m_pages.size())
            m_pages.push_back(std::make_unique<T[]>(PageSize));
        (*this)[m_size++] = value;
    }

    // Grows to `size` elements, the new ones value-initialised (zero for numbers); never shrinks.
    void resize(std::size_t size)
    {
        while (m_pages.size() * PageSize < size)
            m_pages.push_back(std::make_unique<T[]>(PageSize));
        m_size = std::max(m_size, size);
    }

    std::size_t size() const { return m_size; }
    std::size_t memoryBytes() const
    {
        return m_pages.size() * PageSize * sizeof(T) + m_pages.capacity() * sizeof(std::unique_ptr<T[]>);
    }

private:
    std::vector<std::unique_ptr<T[]>> m_pages;
    std::size_t m_size = 0;
};

} // namespace keylens::keyspace::detail
