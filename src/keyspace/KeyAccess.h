#pragma once

#include <algorithm>
#include <cstdint>

namespace keylens::keyspace {

// What the server said about a key's last access, in one 32-bit word per key. Under an LRU (or no eviction)
// policy OBJECT IDLETIME gives the seconds since the key was last read or written; it is kept as the time of that
// access (seconds since the epoch), so that it stays right as the clock moves on and two scans of an unread key
// agree. Under an LFU policy OBJECT FREQ gives the key's logarithmic access counter (0-255) instead: no idle time.
// Neither asked, denied, or failed: unknown, which is never an idle time of 0.
class KeyAccess
{
public:
    constexpr KeyAccess() = default;
    static constexpr KeyAccess lastAccessAt(std::int64_t epochSeconds)
    {
        // Any real time is far above the frequency range; a clock before 1970 + 257 s is no clock.
        return KeyAccess(std::uint32_t(std::clamp<std::int64_t>(epochSeconds, FrequencyEnd, 0xffffffffLL)));
    }
    static constexpr KeyAccess frequency(int counter)
    {
        return KeyAccess(std::uint32_t(std::clamp(counter, 0, 255)) + 1);
    }
    static constexpr KeyAccess fromWord(std::uint32_t word) { return KeyAccess(word); }

    constexpr bool isKnown() const { return m_word != 0; }
    constexpr bool hasIdleTime() const { return m_word >= FrequencyEnd; }
    constexpr bool hasFrequency() const { return m_word != 0 && m_word < FrequencyEnd; }
    // With hasIdleTime(): when the key was last accessed.
    constexpr std::int64_t lastAccessSeconds() const { return m_word; }
    // With hasIdleTime(): its idle time as of `nowSeconds` (0 for an access measured after it).
    constexpr std::uint32_t idleSecondsAt(std::int64_t nowSeconds) const
    {
        return std::uint32_t(std::max<std::int64_t>(0, nowSeconds - lastAccessSeconds()));
    }
    // With hasFrequency(): the LFU counter.
    constexpr int frequencyCounter() const { return int(m_word) - 1; }
    constexpr std::uint32_t word() const { return m_word; }
    friend constexpr bool operator==(KeyAccess, KeyAccess) = default;

private:
    static constexpr std::uint32_t FrequencyEnd = 257;
    constexpr explicit KeyAccess(std::uint32_t word)
        : m_word(word)
    {}
    std::uint32_t m_word = 0;
};

} // namespace keylens::keyspace
