#pragma once

// The store's arrays, and the tree model's arrays by store node.

#include "keyspace/PageWorker.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

namespace keylens::keyspace::detail {

// A growable array in fixed pages of 2^PageBits elements. Unlike std::vector it never doubles: a store
// of ten million keys wastes at most one page per array instead of up to half its capacity, and
// growing never copies (or briefly doubles) what is already there.
//
// The next page is made ready on the page worker once the last one is half full (see PageWorker.h): taken up
// when needed, it has long been cleared and faulted in, off the thread that fills the array (one not ready yet is
// not waited for: that page is made on the spot).
template<typename T, unsigned PageBits = 16> class PagedArray
{
    static_assert(std::is_trivially_destructible_v<T>, "pages are freed without running destructors");

public:
    static constexpr std::size_t PageSize = std::size_t(1) << PageBits;

    T& operator[](std::size_t index) { return m_pages[index >> PageBits][index & (PageSize - 1)]; }
    const T& operator[](std::size_t index) const { return m_pages[index >> PageBits][index & (PageSize - 1)]; }

    void push_back(const T& value)
    {
        if ((m_size & (PageSize - 1)) == PageSize / 2)
            prepareNextPage();
        if ((m_size >> PageBits) == m_pages.size())
            addPage();
        (*this)[m_size++] = value;
    }

    // Grows to `size` elements, the new ones value-initialised (zero for numbers); never shrinks.
    void resize(std::size_t size)
    {
        while (m_pages.size() * PageSize < size)
            addPage();
        m_size = std::max(m_size, size);
        if (m_pages.size() * PageSize - m_size < PageSize / 2)
            prepareNextPage();
    }

    std::size_t size() const { return m_size; }
    std::size_t memoryBytes() const
    {
        return (m_pages.size() + (m_next.isPending() ? 1 : 0)) * PageSize * sizeof(T) +
               m_pages.capacity() * sizeof(Page);
    }

private:
    // A page is a mapping of its own (64 KB at least): it comes zero-filled, which is already the value of every
    // element of a number type, so those pages are only backed (in one call, not a fault a page), never written.
    static constexpr std::size_t PageBytes = PageSize * sizeof(T);
    struct FreePage
    {
        void operator()(T* page) const { unmapZeroed(page, PageBytes); }
    };
    using Page = std::unique_ptr<T[], FreePage>;
    static Page allocatePage() { return Page(static_cast<T*>(mapZeroed(PageBytes))); }
    static void makeElements(Page& page)
    {
        const bool backed = populate(page.get(), PageBytes);
        if (!std::is_scalar_v<T> || !backed)
            std::uninitialized_value_construct_n(page.get(), PageSize); // a struct's own defaults, or the touch
    }

    void prepareNextPage()
    {
        // Allocated here, its elements made (and its memory touched) on the page worker.
        if (!m_next.isPending())
            m_next.start(allocatePage(), &makeElements);
    }

    void addPage()
    {
        // One not ready yet (the worker busy with a bigger job, or the array grown by pages at once) is made here
        // as before, and the one on its way serves the page after.
        std::optional<Page> page = m_next.takeIfReady();
        if (!page) {
            page = allocatePage();
            makeElements(*page);
        }
        m_pages.push_back(std::move(*page));
    }

    std::vector<Page> m_pages;
    MadeAhead<Page> m_next; // the page after the last, once that is half full
    std::size_t m_size = 0;
};

} // namespace keylens::keyspace::detail
