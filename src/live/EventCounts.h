#pragma once

#include "keyspace/Delimiters.h"
#include "live/KeyEvents.h"

#include <QByteArray>
#include <QHash>

#include <array>
#include <cstdint>
#include <vector>

namespace keylens::live {

// Key events of one interval, per pattern and kind.
struct PatternEvents
{
    QByteArray pattern;
    std::array<std::uint64_t, KeyEventCount> counts{}; // by KeyEvent
    std::uint64_t total() const { return counts[0] + counts[1] + counts[2] + counts[3]; }
};

// Counts key events by the pattern of their key (patternOfKey). A keyspace whose keys fold to no shared pattern (ids
// the shapes do not know) could make one pattern per key: past `maxPatterns` new patterns count as one, named so.
class EventCounts
{
public:
    explicit EventCounts(keyspace::Delimiters delimiters, std::size_t maxPatterns = 10'000);
    void add(QByteArrayView key, KeyEvent event);
    // The counts since the last take, most events first, and a fresh start.
    std::vector<PatternEvents> take();
    static QByteArray otherPatterns() { return "(other patterns)"; }

private:
    keyspace::Delimiters m_delimiters;
    std::size_t m_maxPatterns;
    QHash<QByteArray, std::array<std::uint64_t, KeyEventCount>> m_counts;
};

} // namespace keylens::live
