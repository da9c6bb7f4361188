// Memory of the key store alone, without a server: ingests N keys shaped like a real keyspace (ids under
// shared words, tokens, hex hashes) and prints the store's bytes per key and the process RSS per key.
//
// With --fold, it also folds the store into patterns as the pattern view does during a scan, every 4,096 keys, and
// prints the longest step (the GUI thread's slices are made of such steps; the store alone is then not measured).
//
//   build/bin/bench_keyspace_memory [N] [--fold]       (default 1,000,000; try 10000000)
#include "ProcessStats.h"
#include "keyspace/Keyspace.h"
#include "patterns/PatternTree.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

using namespace keylens;

// Folds what the store added since the last call, as the pattern view does during a scan, and keeps each step's time.
class LiveFolding
{
public:
    explicit LiveFolding(const keyspace::Keyspace& store)
        : m_store(store)
        , m_tree(patterns::PatternTree::folding(store))
    {}

    void catchUp()
    {
        QElapsedTimer timer;
        const long faults = threadMinorFaults();
        timer.start();
        m_tree.extend(m_store.nodeCount());
        m_steps.push_back(double(timer.nsecsElapsed()) / 1e6);
        m_faults.push_back(threadMinorFaults() - faults);
    }

    void print()
    {
        std::sort(m_steps.begin(), m_steps.end());
        std::sort(m_faults.begin(), m_faults.end());
        std::printf("folded %zu nodes into %zu patterns while ingesting, %zu steps: longest %.1f ms, p99 %.2f ms, "
                    "total %.2f s; pages first touched in a step: at most %ld, %ld in all\n",
                    m_store.nodeCount(), m_tree.size(), m_steps.size(), m_steps.back(),
                    m_steps[m_steps.size() * 99 / 100], std::accumulate(m_steps.begin(), m_steps.end(), 0.0) / 1e3,
                    m_faults.back(), std::accumulate(m_faults.begin(), m_faults.end(), 0L));
    }

private:
    const keyspace::Keyspace& m_store;
    patterns::PatternTree m_tree;
    std::vector<double> m_steps;
    std::vector<long> m_faults;
};

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::uint64_t count = 1'000'000;
    bool fold = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--fold") == 0)
            fold = true;
        else
            count = std::strtoull(argv[i], nullptr, 10);
    }
    std::mt19937_64 random(7);
    const auto hex = [&](int digits) {
        static constexpr char alphabet[] = "0123456789abcdef";
        QByteArray out(digits, Qt::Uninitialized);
        for (int i = 0; i < digits; ++i)
            out[i] = alphabet[random() % 16];
        return out;
    };

    const long rssBefore = selfRssKb();
    keyspace::Keyspace store;
    store.reserve(count);
    std::optional<LiveFolding> folding;
    if (fold)
        folding.emplace(store);
    QElapsedTimer timer;
    timer.start();
    const long faultsBefore = threadMinorFaults();
    std::uint64_t keyBytes = 0;
    // Fed in batches of 1,024 keys, as a scan's ingest feeds it (Keyspace::insert of several keys).
    constexpr std::size_t BatchKeys = 1024;
    std::vector<QByteArray> batchKeys;
    std::vector<keyspace::KeyInfo> batchInfos;
    std::vector<keyspace::Keyspace::Arrival> arrivals;
    const auto insertBatch = [&] {
        arrivals.clear();
        for (std::size_t k = 0; k < batchKeys.size(); ++k)
            arrivals.push_back({batchKeys[k], &batchInfos[k]});
        store.insert(arrivals);
        batchKeys.clear();
        batchInfos.clear();
    };
    for (std::uint64_t i = 0; i < count; ++i) {
        QByteArray key;
        switch (i % 10) {
        case 0:
            key = "user:" + QByteArray::number(i) + ":profile";
            break;
        case 1:
            key = "user:" + QByteArray::number(i - 1) + ":settings";
            break;
        case 2:
            key = "user:" + QByteArray::number(i - 2) + ":sessions";
            break;
        case 3:
            key = "user:" + QByteArray::number(i - 3);
            break; // a key that is also a namespace
        case 4:
        case 5:
            key = "session:" + hex(32);
            break;
        case 6:
            key = "cache:db:query:" + hex(40);
            break;
        case 7:
            key = "rate:limit:api:user:" + QByteArray::number(i);
            break;
        case 8:
            key = "order:" + QByteArray::number(i) + ":detail";
            break;
        default:
            key = "bull:email:" + QByteArray::number(i);
            break;
        }
        keyBytes += std::uint64_t(key.size());
        keyspace::KeyInfo info;
        info.type = keyspace::KeyType::Hash;
        info.memoryBytes = 100 + i % 500;
        info.memoryMeasured = true;
        info.expiresAtMs = i % 3 ? keyspace::NoExpiry : 1'800'000'000'000 + std::int64_t(i);
        batchKeys.push_back(std::move(key));
        batchInfos.push_back(info);
        if (batchKeys.size() == BatchKeys || i + 1 == count)
            insertBatch();
        if (folding && i % 4096 == 4095) // a multiple of the batch: caught up with whole batches
            folding->catchUp();
    }
    const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    const long faults = threadMinorFaults() - faultsBefore;
    const long rssAfter = selfRssKb();
    std::printf("%llu keys (%.1f bytes of key name on average), %zu nodes, ingested in %.2f s (%.0f keys/s)\n",
                static_cast<unsigned long long>(store.keyCount()), double(keyBytes) / double(count), store.nodeCount(),
                seconds, double(count) / seconds);
    std::printf("store arrays and tables: %.1f bytes/key\n", double(store.memoryBytes()) / double(count));
    std::printf("pages first touched by the ingesting thread: %ld (%.1f MiB)\n", faults, double(faults) / 256.0);
    std::printf("process RSS growth:      %.1f bytes/key (peak RSS %.1f MiB)\n",
                double(rssAfter - rssBefore) * 1024.0 / double(count), double(selfPeakRssKb()) / 1024.0);
    if (folding)
        folding->print();
    return 0;
}
