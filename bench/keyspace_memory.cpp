// Memory of the key store alone, without a server: ingests N keys shaped like a real keyspace (ids under
// shared words, tokens, hex hashes) and prints the store's bytes per key and the process RSS per key.
//
//   build/bin/bench_keyspace_memory [N]        (default 1,000,000; try 10000000)
#include "ProcessStats.h"
#include "keyspace/Keyspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <random>

using namespace keylens;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const std::uint64_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
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
    QElapsedTimer timer;
    timer.start();
    std::uint64_t keyBytes = 0;
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
        store.insert(key, info);
    }
    const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    const long rssAfter = selfRssKb();
    std::printf("%llu keys (%.1f bytes of key name on average), %zu nodes, ingested in %.2f s (%.0f keys/s)\n",
                static_cast<unsigned long long>(store.keyCount()), double(keyBytes) / double(count), store.nodeCount(),
                seconds, double(count) / seconds);
    std::printf("store arrays and tables: %.1f bytes/key\n", double(store.memoryBytes()) / double(count));
    std::printf("process RSS growth:      %.1f bytes/key (peak RSS %.1f MiB)\n",
                double(rssAfter - rssBefore) * 1024.0 / double(count), double(selfPeakRssKb()) / 1024.0);
    return 0;
}
