#include "live/EventCounts.h"

#include "live/KeyPattern.h"

#include <algorithm>

namespace keylens::live {

EventCounts::EventCounts(keyspace::Delimiters delimiters, std::size_t maxPatterns)
    : m_delimiters(std::move(delimiters))
    , m_maxPatterns(maxPatterns)
{}

void EventCounts::add(QByteArrayView key, KeyEvent event)
{
    QByteArray pattern = patternOfKey(key, m_delimiters);
    auto it = m_counts.find(pattern);
    if (it == m_counts.end())
        it = m_counts.insert(std::size_t(m_counts.size()) < m_maxPatterns ? std::move(pattern) : otherPatterns(), {});
    ++(*it)[std::size_t(event)];
}

std::vector<PatternEvents> EventCounts::take()
{
    std::vector<PatternEvents> out;
    out.reserve(std::size_t(m_counts.size()));
    for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it)
        out.push_back({it.key(), it.value()});
    m_counts.clear();
    std::sort(out.begin(), out.end(), [](const PatternEvents& a, const PatternEvents& b) {
        return a.total() != b.total() ? a.total() > b.total() : a.pattern < b.pattern;
    });
    return out;
}

} // namespace keylens::live
