#pragma once

#include "live/KeyEvents.h"

#include <QByteArray>
#include <QHash>

#include <cstdint>
#include <vector>

namespace keylens::live {

// One key's events since the last take: the last one decides whether it exists now (a write, then a delete, is a
// delete), and the writes and deletes clients made to it are counted (expiries and evictions are the server's).
struct KeyChange
{
    QByteArray key;
    KeyEvent last = KeyEvent::Write;
    std::uint32_t writes = 0;
};

// The keys key events named, each once, for the live tree: 100,000 writes a second to a few thousand keys are a few
// thousand keys to measure again, not 100,000. Past `maxKeys` distinct keys between two takes, the follower cannot
// keep up: it says so (overflowed) rather than drop some and show totals that are silently wrong.
class ChangedKeys
{
public:
    explicit ChangedKeys(std::size_t maxKeys)
        : m_maxKeys(maxKeys)
    {}
    void add(QByteArrayView key, KeyEvent event);
    std::size_t size() const { return std::size_t(m_keys.size()); }
    bool overflowed() const { return m_overflowed; }
    // The keys since the last take, in no order, and a fresh start (overflowed stays: what was lost is lost).
    std::vector<KeyChange> take();

private:
    struct Seen
    {
        KeyEvent last = KeyEvent::Write;
        std::uint32_t writes = 0;
    };
    std::size_t m_maxKeys;
    QHash<QByteArray, Seen> m_keys;
    bool m_overflowed = false;
};

} // namespace keylens::live
