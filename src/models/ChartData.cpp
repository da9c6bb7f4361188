#include "models/ChartData.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <bit>

namespace keylens::models {

using keyspace::NodeId;

namespace {

constexpr std::int64_t Minute = 60'000;
constexpr std::int64_t Hour = 60 * Minute;
constexpr std::int64_t Day = 24 * Hour;
constexpr std::int64_t Week = 7 * Day;

// The bars biggest first by `value`, TopBars of them, then one that sums the rest.
std::vector<ChartData::Bar> topBars(std::vector<ChartData::Bar> bars, std::uint64_t ChartData::Bar::*value)
{
    std::stable_sort(bars.begin(), bars.end(),
                     [value](const ChartData::Bar& a, const ChartData::Bar& b) { return a.*value > b.*value; });
    if (bars.size() <= std::size_t(ChartData::TopBars) + 1)
        return bars;
    ChartData::Bar other;
    other.count = 0;
    for (std::size_t i = ChartData::TopBars; i < bars.size(); ++i) {
        other.keys += bars[i].keys;
        other.memoryBytes += bars[i].memoryBytes;
        other.count += bars[i].count;
    }
    other.label = QCoreApplication::translate("ChartData", "%1 others").arg(other.count);
    bars.resize(ChartData::TopBars);
    bars.push_back(other);
    return bars;
}

} // namespace

QString ChartData::ttlBucketName(int bucket)
{
    static const char* const names[TtlBuckets] = {"none", "<1m", "<1h", "<1d", "<1w", "≥1w"};
    return QString::fromUtf8(names[bucket]);
}

int ChartData::ttlBucketOf(std::int64_t expiresAtMs, std::int64_t nowMs)
{
    if (expiresAtMs == keyspace::ExpiryUnknown)
        return -1;
    if (!keyspace::hasExpiry(expiresAtMs))
        return 0;
    const std::int64_t left = expiresAtMs - nowMs; // an expiry passed since the scan counts as under a minute
    return left < Minute ? 1 : left < Hour ? 2 : left < Day ? 3 : left < Week ? 4 : 5;
}

QString ChartData::idleBucketName(int bucket)
{
    static const char* const names[IdleBuckets] = {"<1h", "<1d", "<1w", "<30d", "≥30d"};
    return QString::fromUtf8(names[bucket]);
}

int ChartData::idleBucketOf(keyspace::KeyAccess access, std::int64_t nowMs)
{
    if (!access.hasIdleTime())
        return -1;
    const std::int64_t idle = std::int64_t(access.idleSecondsAt(nowMs / 1000)) * 1000;
    return idle < Hour ? 0 : idle < Day ? 1 : idle < Week ? 2 : idle < 30 * Day ? 3 : 4;
}

int ChartData::memoryBucketOf(std::uint64_t bytes)
{
    return bytes == 0 ? 0 : std::min(MemoryBuckets - 1, int(std::bit_width(bytes)) - 1);
}

int ChartData::nameLengthBucketOf(std::size_t bytes)
{
    return std::min(NameLengthBuckets - 1, int(bytes / NameLengthStep));
}

ChartWalk::ChartWalk(const keyspace::Keyspace& store, std::vector<NodeId> roots, std::int64_t nowMs, const BarOf& barOf)
    : m_store(store)
{
    m_data.nowMs = nowMs;
    QHash<QString, std::uint32_t> barIndex;
    const auto barFor = [&](const QString& label) {
        auto it = barIndex.find(label);
        if (it == barIndex.end()) {
            it = barIndex.insert(label, std::uint32_t(m_bars.size()));
            ChartData::Bar bar;
            bar.label = label;
            m_bars.push_back(bar);
        }
        return *it;
    };
    for (const NodeId root : roots) {
        if (store.isKey(root))
            count(root, barFor(QCoreApplication::translate("ChartData", "(the keys themselves)")));
        store.forEachChild(root, [&](NodeId child) { m_stack.push_back({child, barFor(barOf(child))}); });
    }
}

void ChartWalk::count(NodeId key, std::uint32_t bar)
{
    const keyspace::KeyInfo info = m_store.keyInfo(key);
    ++m_data.keys;
    m_data.memoryBytes += info.memoryBytes;
    ++m_bars[bar].keys;
    m_bars[bar].memoryBytes += info.memoryBytes;
    ++m_data.types[std::size_t(info.type)];
    const int ttl = ChartData::ttlBucketOf(info.expiresAtMs, m_data.nowMs);
    if (ttl < 0) {
        ++m_data.ttlUnknown;
    } else {
        ++m_data.ttlKeys[std::size_t(ttl)];
        m_data.ttlMemory[std::size_t(ttl)] += info.memoryBytes;
    }
    if (const int idle = ChartData::idleBucketOf(info.access, m_data.nowMs); idle < 0) {
        ++m_data.idleUnknown;
    } else {
        ++m_data.idleKeys[std::size_t(idle)];
        m_data.idleMemory[std::size_t(idle)] += info.memoryBytes;
    }
    if (keyspace::hasExpiry(info.expiresAtMs) && info.expiresAtMs > m_data.nowMs) {
        const std::int64_t minute = (info.expiresAtMs - m_data.nowMs) / Minute;
        if (minute < ChartData::TimelineMinutes)
            ++m_data.expiriesPerMinute[std::size_t(minute)];
    }
    ++m_data.nameLengths[std::size_t(ChartData::nameLengthBucketOf(m_store.pathLength(key)))];
    if (info.memoryMeasured)
        ++m_data.memoryPerKey[std::size_t(ChartData::memoryBucketOf(info.memoryBytes))];
}

bool ChartWalk::step(std::size_t nodes)
{
    for (std::size_t walked = 0; walked < nodes && !m_stack.empty(); ++walked) {
        const Visit visit = m_stack.back();
        m_stack.pop_back();
        if (m_store.isKey(visit.node))
            count(visit.node, visit.bar);
        m_store.forEachChild(visit.node, [&](NodeId child) { m_stack.push_back({child, visit.bar}); });
    }
    return m_stack.empty();
}

ChartData ChartWalk::result() const
{
    ChartData data = m_data;
    data.byMemory = topBars(m_bars, &ChartData::Bar::memoryBytes);
    data.byKeys = topBars(m_bars, &ChartData::Bar::keys);
    return data;
}

} // namespace keylens::models
