// Reading RDB files offline (src/rdb): per key, the name, type, element count and expiry equal what a redis-server
// that loaded the same file answers (a plain client: TYPE, the type's length command, PEXPIRETIME); files the local
// redis-server wrote from keyspaces with every type and encoding, the real fixtures of older versions, and damaged
// files that must end in a clear error with an offset, keeping what came before.
#include "CliRunner.h"
#include "JsonReport.h"
#include "PlainClient.h"
#include "RdbHex.h"
#include "TestServer.h"
#include "rdb/Crc64.h"
#include "rdb/RdbReader.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <set>
#include <sys/stat.h>

using namespace keylens;

namespace {

struct Read
{
    std::map<QByteArray, rdb::RdbKey> keys; // of every database, by "db/key"
    rdb::RdbSummary summary;
};

// `members`: of every set, sorted set and list, keep so many first members (RdbKey::members), each up to `bytes`.
Read readBytes(const QByteArray& bytes, int members = 0, int memberBytes = 512)
{
    Read read;
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    rdb::RdbCallbacks callbacks;
    callbacks.key = [&](const rdb::RdbKey& key) { read.keys[QByteArray::number(key.db) + '/' + key.key] = key; };
    if (members > 0) {
        callbacks.members = [members](const rdb::RdbKey&) { return members; };
        callbacks.memberBytes = memberBytes;
    }
    read.summary = rdb::readRdb(buffer, -1, callbacks);
    return read;
}

QByteArray fileBytes(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString fixture(const char* name)
{
    return QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb/") + QLatin1String(name);
}

// The same bytes with the CRC-64 the trailer would have had with rdbchecksum yes.
QByteArray withChecksum(QByteArray bytes)
{
    bytes.chop(8);
    rdb::Crc64 crc64;
    crc64.update(bytes.constData(), std::size_t(bytes.size()));
    const std::uint64_t crc = crc64.value();
    for (int i = 0; i < 8; ++i)
        bytes += char((crc >> (8 * i)) & 0xff);
    return bytes;
}

// What the server says of one key: its type and length, its expiry.
struct ServerKey
{
    QByteArray type;
    std::uint64_t elements = 0;
    long long expiresAtMs = -1;
};

ServerKey askServer(test::PlainClient& client, const QByteArray& key)
{
    ServerKey answer;
    answer.type = client.command({"TYPE", key});
    const QByteArray length = answer.type == "string"   ? "STRLEN"
                              : answer.type == "list"   ? "LLEN"
                              : answer.type == "set"    ? "SCARD"
                              : answer.type == "zset"   ? "ZCARD"
                              : answer.type == "hash"   ? "HLEN"
                              : answer.type == "stream" ? "XLEN"
                                                        : QByteArray();
    if (!length.isEmpty())
        answer.elements = std::uint64_t(client.integer({length, key}));
    answer.expiresAtMs = client.integer({"PEXPIRETIME", key});
    return answer;
}

// Every key of database `db` on the server equals the file's.
void compareWithServer(test::PlainClient& client, const Read& read, int db)
{
    client.command({"SELECT", QByteArray::number(db)});
    const std::vector<QByteArray> names = client.elements({"KEYS", "*"});
    // A key whose time ran out before the server loaded the file is not loaded.
    const long long now = QDateTime::currentMSecsSinceEpoch();
    std::size_t inFile = 0;
    for (const auto& [id, key] : read.keys)
        inFile += key.db == db && key.expiresAtMs.value_or(now + 1) > now ? 1 : 0;
    QCOMPARE(inFile, names.size());
    for (const QByteArray& name : names) {
        const auto it = read.keys.find(QByteArray::number(db) + '/' + name);
        QVERIFY2(it != read.keys.end(), name.constData());
        const rdb::RdbKey& key = it->second;
        const ServerKey server = askServer(client, name);
        QCOMPARE(QByteArray(keyspace::keyTypeName(key.type).toByteArray()), server.type);
        QVERIFY2(key.elements == server.elements,
                 qPrintable(QStringLiteral("%1: %2 elements in the file, %3 on the server")
                                .arg(QString::fromUtf8(name))
                                .arg(key.elements)
                                .arg(server.elements)));
        QCOMPARE(key.expiresAtMs.value_or(-1), server.expiresAtMs);
    }
}

} // namespace

class TestRdb : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void crcOfTheCheckString()
    {
        rdb::Crc64 crc;
        crc.update("123456789", 9);
        QCOMPARE(crc.value(), 0xe9c6d914c4b8d9caULL);
        rdb::Crc64 split; // in pieces: the same
        split.update("1234", 4);
        split.update("56789", 5);
        QCOMPARE(split.value(), crc.value());
    }

    // The fixtures redis-server 7.0 can load (RDB 3 to 10): what it answers is the truth.
    void fixturesAgreeWithTheServer_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name :
             {"redis_encodings.rdb", "rdbtools_keys_with_expiry.rdb", "rdbtools_multiple_databases.rdb",
              "rdbtools_non_ascii_values.rdb", "rdbtools_rdb_version_8_with_64b_length_and_scores.rdb",
              "rdbtools_redis_50_with_streams.rdb", "rdbtools_uncompressible_string_keys.rdb",
              "rdbtools_zipmap_with_big_values.rdb", "hdt_listpack.rdb", "rdbtools_empty_database.rdb"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void fixturesAgreeWithTheServer()
    {
        QFETCH(QString, name);
        const Read read = readBytes(fileBytes(fixture(name.toLatin1().constData())));
        QVERIFY2(!read.summary.error, qPrintable(read.summary.error ? read.summary.error->message : QString()));
        QVERIFY(read.summary.complete);
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.rdbDirectory = QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb");
        options.rdbFilename = name;
        KEYLENS_START_SERVER(server, options);
        test::PlainClient client(server.port());
        std::set<int> dbs{0};
        for (const auto& [id, key] : read.keys)
            dbs.insert(key.db);
        for (const int db : dbs)
            compareWithServer(client, read, db);
    }

    // Newer than the local server reads: what the fixtures' sources document.
    void newerFixtures()
    {
        const Read functions = readBytes(fileBytes(fixture("hdt_function.rdb")));
        QVERIFY(functions.summary.complete);
        QCOMPARE(functions.summary.version, 11);
        QCOMPARE(functions.keys.size(), std::size_t(0));
        QCOMPARE(functions.summary.functions, 1u);

        const Read fieldTtls = readBytes(fileBytes(fixture("hdt_hash_with_hfe.rdb")));
        QVERIFY2(fieldTtls.summary.complete,
                 qPrintable(fieldTtls.summary.error ? fieldTtls.summary.error->message : QString()));
        QCOMPARE(fieldTtls.summary.version, 12);
        QCOMPARE(fieldTtls.keys.size(), std::size_t(1));
        QCOMPARE(fieldTtls.keys.begin()->second.type, keyspace::KeyType::Hash);
        QCOMPARE(fieldTtls.keys.begin()->second.elements, 8u);

        // A module's value (ReJSON) is skipped field by field, without the module: its key is there, of type other.
        const Read module = readBytes(fileBytes(fixture("rdbtools_redis_40_with_module.rdb")));
        QVERIFY2(module.summary.complete, qPrintable(module.summary.error ? module.summary.error->message : QString()));
        QCOMPARE(module.keys.size(), std::size_t(2));
        QCOMPARE(module.keys.at("0/foo").type, keyspace::KeyType::Other);
        QCOMPARE(module.keys.at("0/simplekey").type, keyspace::KeyType::String);
        QCOMPARE(module.summary.redisVersion, QByteArray("4.0.0"));
    }

    // The first members of a set, sorted set or list, for the role evidence (an index of keys that expire?): kept from
    // every encoding a file may hold them in, as the saving server had them (its own expected dumps: redis-server 7.0
    // loading the file, HDT3213/rdb's cases/listpack.json), integers as their text, a sorted set's without
    // its scores; cut to the bytes asked; none unless asked.
    void firstMembersOfEveryEncoding()
    {
        using List = QByteArrayList;
        const Read classic = readBytes(fileBytes(fixture("redis_encodings.rdb")), 5);
        QVERIFY(classic.summary.complete);
        QCOMPARE(classic.keys.at("0/list_zipped").members, (List{"1", "2", "3", "a", "b"})); // ziplist
        QCOMPARE(classic.keys.at("0/list").members, (List{"1", "2", "3", "a", "b"}));        // linked list
        QCOMPARE(classic.keys.at("0/zset_zipped").members, (List{"a", "b", "c"}));           // ziplist pairs
        QCOMPARE(classic.keys.at("0/set_zipped_1").members, (List{"1", "2", "3", "4"}));     // intset 16
        QCOMPARE(classic.keys.at("0/set_zipped_2").members, (List{"100000", "200000", "300000", "400000"}));
        QCOMPARE(classic.keys.at("0/set_zipped_3").members, // intset 64
                 (List{"1000000000", "2000000000", "3000000000", "4000000000", "5000000000"}));
        // A hash table's order: what the server that loads the file holds (SMEMBERS, ZRANGE), in some order.
        const QSet<QByteArray> setMembers{"1", "100000", "2", "3", "6000000000", "a", "b", "c"};
        QCOMPARE(classic.keys.at("0/set").members.size(), 5);
        for (const QByteArray& member : classic.keys.at("0/set").members)
            QVERIFY2(setMembers.contains(member), member.constData());
        const QSet<QByteArray> zsetMembers{"a",   "b",   "c",   "aa",   "bb",   "cc",
                                           "aaa", "bbb", "ccc", "aaaa", "cccc", "bbbb"};
        QCOMPARE(classic.keys.at("0/zset").members.size(), 5);
        for (const QByteArray& member : classic.keys.at("0/zset").members)
            QVERIFY2(zsetMembers.contains(member), member.constData());
        QVERIFY(classic.keys.at("0/hash").members.isEmpty()); // a hash's fields are no members
        QVERIFY(classic.keys.at("0/compressible").members.isEmpty());

        const Read listpacks = readBytes(fileBytes(fixture("hdt_listpack.rdb")), 12);
        QVERIFY(listpacks.summary.complete);
        QCOMPARE(listpacks.keys.at("0/l").members, (List{"1", "20000", "aaaa", "4", "16380", "-16380", "1048576",
                                                         "268435456", "8589934592"})); // quicklist of listpacks
        QCOMPARE(listpacks.keys.at("0/z").members,
                 (List{"11", "9", "7", "5", "12", "3", "1", "2", "4", "6", "8", "10"})); // listpack pairs, by score
        QVERIFY(listpacks.keys.at("0/h").members.isEmpty());

        const Read setListpack = readBytes(test::handBuiltRdb("rdb11-set-listpack.rdbhex"), 5, 3);
        QCOMPARE(setListpack.keys.at("0/tags").members, (List{"red", "blu", "7"})); // cut to 3 bytes

        QVERIFY(readBytes(fileBytes(fixture("redis_encodings.rdb"))).keys.at("0/list").members.isEmpty());
    }

    // Hand-built files of the encodings no server here writes (the local one is 7.0, RDB 10): RDB 11's set listpack,
    // RDB 12's hashes with field expiries in both layouts, Valkey 9's VALKEY080 with its own such hash and the slot
    // info opcode. What each byte is, is in the file; the figures below follow from those bytes.
    void handBuiltFiles()
    {
        constexpr std::int64_t Year2100 = 4102444800000;
        const QByteArray rdb11 = test::handBuiltRdb("rdb11-set-listpack.rdbhex");
        QCOMPARE(rdb11.size(), 118);
        Read read = readBytes(rdb11);
        QVERIFY2(read.summary.complete, qPrintable(read.summary.error ? read.summary.error->message : QString()));
        QVERIFY(!read.summary.checksumChecked); // zero: saved without one
        QCOMPARE(read.summary.version, 11);
        QCOMPARE(read.summary.redisVersion, QByteArray("7.2.4"));
        QCOMPARE(read.summary.savedAtSeconds, std::optional<std::int64_t>(1700000000));
        QCOMPARE(read.summary.usedMemory, std::optional<std::uint64_t>(1048576));
        QCOMPARE(read.summary.dbSizes.size(), std::size_t(1));
        QCOMPARE(read.summary.dbSizes.front().second, 2u);
        QCOMPARE(read.keys.size(), std::size_t(2));
        const rdb::RdbKey& tags = read.keys.at("0/tags");
        QCOMPARE(tags.type, keyspace::KeyType::Set);
        QCOMPARE(tags.rdbType, std::uint8_t(20));
        QCOMPARE(tags.elements, 3u);
        QCOMPARE(tags.savedBytes, 21u); // the length byte and the 20 of the listpack
        QVERIFY(!tags.expiresAtMs);
        const rdb::RdbKey& session = read.keys.at("0/session:1");
        QCOMPARE(session.type, keyspace::KeyType::String);
        QCOMPARE(session.elements, 3u);
        QCOMPARE(session.expiresAtMs, std::optional<std::int64_t>(Year2100));

        // With the checksum rdbchecksum yes would have saved: checked; one bit off: a clear error, the keys read.
        QByteArray summed = withChecksum(rdb11);
        read = readBytes(summed);
        QVERIFY(read.summary.complete);
        QVERIFY(read.summary.checksumChecked);
        summed[summed.size() - 1] = char(summed.back() ^ 0x01);
        read = readBytes(summed);
        QVERIFY(!read.summary.complete);
        QVERIFY(read.summary.error && read.summary.error->message.contains(QLatin1String("checksum")));
        QCOMPARE(read.keys.size(), std::size_t(2));

        const Read rdb12 = readBytes(test::handBuiltRdb("rdb12-hash-field-ttls.rdbhex"));
        QVERIFY2(rdb12.summary.complete, qPrintable(rdb12.summary.error ? rdb12.summary.error->message : QString()));
        QCOMPARE(rdb12.summary.version, 12);
        QCOMPARE(rdb12.keys.size(), std::size_t(2));
        const rdb::RdbKey& listpackEx = rdb12.keys.at("0/hlp");
        QCOMPARE(listpackEx.type, keyspace::KeyType::Hash);
        QCOMPARE(listpackEx.rdbType, std::uint8_t(25));
        QCOMPARE(listpackEx.elements, 2u);    // six entries, in triplets
        QCOMPARE(listpackEx.savedBytes, 49u); // the soonest expiry (8), the length byte, the listpack (40)
        QVERIFY(!listpackEx.expiresAtMs);     // its fields expire, the key does not
        const rdb::RdbKey& metadata = rdb12.keys.at("0/hmeta");
        QCOMPARE(metadata.type, keyspace::KeyType::Hash);
        QCOMPARE(metadata.rdbType, std::uint8_t(24));
        QCOMPARE(metadata.elements, 2u);
        QCOMPARE(metadata.savedBytes, 8u + 1 + 3 * 2 + 2 * 2);

        const Read valkey = readBytes(test::handBuiltRdb("valkey080.rdbhex"));
        QVERIFY2(valkey.summary.complete, qPrintable(valkey.summary.error ? valkey.summary.error->message : QString()));
        QVERIFY(valkey.summary.valkey);
        QCOMPARE(valkey.summary.version, 80);
        QCOMPARE(valkey.summary.redisVersion, QByteArray("9.0.0")); // valkey-ver
        QCOMPARE(valkey.keys.size(), std::size_t(2));
        const rdb::RdbKey& profile = valkey.keys.at("0/profile:7");
        QCOMPARE(profile.type, keyspace::KeyType::Hash);
        QCOMPARE(profile.elements, 2u);
        QCOMPARE(profile.savedBytes, 1u + 2 * (3 + 3 + 8));
        QCOMPARE(valkey.keys.at("0/token").expiresAtMs, std::optional<std::int64_t>(Year2100));

        // Valkey's type 22 is not Redis's: the same bytes under a Redis magic are read in the layout of Redis 7.4's
        // release candidates (an expiry before each field), which they do not fit ("f1" read as a length runs past the
        // end); and a type past Valkey's last is named, with its offset and the version.
        QByteArray asRedis = test::handBuiltRdb("valkey080.rdbhex");
        asRedis.replace(0, 9, "REDIS0012");
        const Read misread = readBytes(asRedis);
        QVERIFY(!misread.summary.complete);
        QVERIFY(misread.keys.count("0/profile:7") == 0);
        QByteArray unknownType = test::handBuiltRdb("valkey080.rdbhex");
        const qsizetype hashAt = unknownType.indexOf("\x16\x09profile:7");
        QVERIFY(hashAt > 0);
        unknownType[hashAt] = char(23);
        const Read refused = readBytes(unknownType);
        QVERIFY(!refused.summary.complete);
        QVERIFY2(refused.summary.error->message.contains(QStringLiteral("unknown opcode 23 at offset %1").arg(hashAt)),
                 qPrintable(refused.summary.error->message));
        QVERIFY(refused.summary.error->message.contains(QLatin1String("version 80")));
    }

    // A keyspace with every type in every encoding the local server (7.0, RDB 10) writes, small and big; saved, read
    // back, and compared key by key with the server. The estimated memory against MEMORY USAGE SAMPLES 0.
    void whatTheLocalServerWrites()
    {
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.extraArguments = {QStringLiteral("--enable-debug-command"), QStringLiteral("yes"),
                                  QStringLiteral("--maxmemory-policy"), QStringLiteral("allkeys-lru")};
        KEYLENS_START_SERVER(server, options);
        test::PlainClient client(server.port());
        std::vector<std::vector<QByteArray>> writes;
        const auto n = [](int i) { return QByteArray::number(i); };
        // Strings: an integer, embedded, raw, compressible (LZF in the file), incompressible.
        writes.push_back({"SET", "str:int", "1234567"});
        writes.push_back({"SET", "str:small", "hello"});
        writes.push_back({"SET", "str:44", QByteArray(44, 'a')});
        writes.push_back({"SET", "str:45", QByteArray(45, 'b')});
        writes.push_back({"SET", "str:lzf", QByteArray(100000, 'x')});
        QByteArray noise;
        for (int i = 0; i < 20000; ++i)
            noise += char((i * 7919 + i / 3) % 251);
        writes.push_back({"SET", "str:noise", noise});
        // Lists: one listpack node, many nodes, elements too big to pack (plain nodes, below).
        for (int i = 0; i < 5; ++i)
            writes.push_back({"RPUSH", "list:small", n(i)});
        for (int i = 0; i < 20000; ++i)
            writes.push_back({"RPUSH", "list:big", "element-" + n(i)});
        // Sets: an intset, a hash table of strings, a hash table of integers past set-max-intset-entries.
        for (int i = 0; i < 100; ++i)
            writes.push_back({"SADD", "set:ints", n(i * 3)});
        for (int i = 0; i < 2000; ++i)
            writes.push_back({"SADD", "set:words", "member-" + n(i)});
        for (int i = 0; i < 1000; ++i)
            writes.push_back({"SADD", "set:manyints", n(i)});
        // Sorted sets: a listpack, a skiplist.
        for (int i = 0; i < 10; ++i)
            writes.push_back({"ZADD", "zset:small", n(i), "m" + n(i)});
        for (int i = 0; i < 3000; ++i)
            writes.push_back({"ZADD", "zset:big", n(i) + ".5", "member-" + n(i)});
        // Hashes: a listpack, a hash table by count, one by a long value.
        for (int i = 0; i < 10; ++i)
            writes.push_back({"HSET", "hash:small", "f" + n(i), "v" + n(i)});
        for (int i = 0; i < 3000; ++i)
            writes.push_back({"HSET", "hash:big", "field-" + n(i), "value-" + n(i)});
        writes.push_back({"HSET", "hash:longvalue", "f", QByteArray(200, 'v')});
        // A stream with a consumer group, two consumers and pending entries.
        for (int i = 0; i < 1500; ++i)
            writes.push_back({"XADD", "stream:events", "*", "n", n(i), "kind", "click"});
        writes.push_back({"XGROUP", "CREATE", "stream:events", "workers", "0"});
        writes.push_back({"XREADGROUP", "GROUP", "workers", "alice", "COUNT", "20", "STREAMS", "stream:events", ">"});
        writes.push_back({"XREADGROUP", "GROUP", "workers", "bob", "COUNT", "5", "STREAMS", "stream:events", ">"});
        // Expiries, far off.
        writes.push_back({"PEXPIREAT", "str:small", "4102444800000"});
        writes.push_back({"PEXPIREAT", "hash:big", "4102444800123"});
        QCOMPARE(client.pipeline(writes), std::size_t(0));
        // Plain quicklist nodes: elements over the packed threshold.
        QCOMPARE(client.command({"DEBUG", "QUICKLIST-PACKED-THRESHOLD", "1000"}), QByteArray("OK"));
        for (int i = 0; i < 3; ++i)
            client.command({"RPUSH", "list:plain", QByteArray(5000 + i, 'p')});
        client.command({"RPUSH", "list:plain", "small"});
        QCOMPARE(client.command({"SAVE"}), QByteArray("OK"));
        const std::vector<QByteArray> dir = client.elements({"CONFIG", "GET", "dir"});
        const Read read = readBytes(fileBytes(QString::fromUtf8(dir.back()) + QStringLiteral("/dump.rdb")));
        QVERIFY2(read.summary.complete, qPrintable(read.summary.error ? read.summary.error->message : QString()));
        QVERIFY(read.summary.checksumChecked);
        QCOMPARE(read.summary.version, 10);
        QVERIFY(client.command({"INFO", "server"})
                    .contains(QByteArray("redis_version:" + read.summary.redisVersion + "\r")));
        compareWithServer(client, read, 0);
        // Saved under an LRU policy: each key's idle time.
        QVERIFY(read.keys.at("0/str:int").idleSeconds.has_value());

        // big-string and big-collection judge a file with its own lengths: as many findings as the server's STRLEN,
        // LLEN… say there are big keys (over 10 KiB, over 5,000 elements), and as the lint of the server finds.
        std::uint64_t bigStrings = 0;
        std::uint64_t bigCollections = 0;
        for (const QByteArray& name : client.elements({"KEYS", "*"})) {
            const ServerKey key = askServer(client, name);
            bigStrings += key.type == "string" && key.elements > 10 * 1024 ? 1 : 0;
            bigCollections += key.type != "string" && key.elements > 5000 ? 1 : 0;
        }
        QVERIFY(bigStrings >= 2 && bigCollections >= 1); // the keyspace above has them
        const QString dumpPath = QString::fromUtf8(dir.back()) + QStringLiteral("/dump.rdb");
        for (const QStringList& target : {QStringList{QStringLiteral("--rdb"), dumpPath}, QStringList{server.uri()}}) {
            const test::CliRun linted = test::runCli(QStringList{QStringLiteral("lint")} + target +
                                                     QStringList{QStringLiteral("--format"), QStringLiteral("json")});
            QVERIFY2(linted.exitCode == 0 || linted.exitCode == 1, linted.err.constData());
            const QJsonObject byRule =
                test::parseJson(linted.out)[QLatin1String("summary")].toObject()[QLatin1String("by_rule")].toObject();
            QCOMPARE(std::uint64_t(byRule[QLatin1String("big-string")].toInt()), bigStrings);
            QCOMPARE(std::uint64_t(byRule[QLatin1String("big-collection")].toInt()), bigCollections);
        }

        // Memory: per namespace within 15 % of MEMORY USAGE SAMPLES 0 summed, and within 25 % for each key over 10 KB.
        std::map<QByteArray, std::pair<double, double>> byNamespace; // estimated, measured
        for (const auto& [id, key] : read.keys) {
            const double measured = double(client.integer({"MEMORY", "USAGE", key.key, "SAMPLES", "0"}));
            const double estimated = double(key.estimatedMemory);
            const QByteArray ns = key.key.left(key.key.indexOf(':'));
            byNamespace[ns].first += estimated;
            byNamespace[ns].second += measured;
            qInfo("%-16s %-10s %9.0f estimated %9.0f measured (%+.1f %%)", key.key.constData(),
                  keyspace::keyTypeName(key.type).toByteArray().constData(), estimated, measured,
                  (estimated / measured - 1) * 100);
            if (measured > 10240)
                QVERIFY2(std::abs(estimated / measured - 1) <= 0.25, key.key.constData());
        }
        for (const auto& [ns, figures] : byNamespace)
            QVERIFY2(std::abs(figures.first / figures.second - 1) <= 0.15,
                     qPrintable(QStringLiteral("%1: %2 estimated, %3 measured")
                                    .arg(QString::fromUtf8(ns))
                                    .arg(figures.first)
                                    .arg(figures.second)));
    }

    // keylens-cli scan and lint --rdb: the same reports as of a server, marked estimated; standard input; a file that
    // is none or is damaged: exit 2, and the keys before the damage reported as a partial result.
    void commandLine()
    {
        const QString encodings = fixture("redis_encodings.rdb");
        const test::CliRun scanned = test::runCli({QStringLiteral("scan"), QStringLiteral("--rdb"), encodings,
                                                   QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(scanned.exitCode, 0);
        const QJsonObject report = test::parseJson(scanned.out);
        const QJsonObject scan = report[QLatin1String("scan")].toObject();
        QCOMPARE(scan[QLatin1String("memory_estimated")].toBool(), true);
        QCOMPARE(scan[QLatin1String("complete")].toBool(), true);
        QCOMPARE(scan[QLatin1String("keys")].toInt(), 13);
        QCOMPARE(scan[QLatin1String("rdb_file")].toString(), encodings);
        QCOMPARE(report[QLatin1String("totals")].toObject()[QLatin1String("keys")].toInt(), 13);

        // The same bytes on standard input.
        QProcess piped;
        piped.setStandardInputFile(encodings);
        test::startCli(piped, {QStringLiteral("scan"), QStringLiteral("--rdb"), QStringLiteral("-"),
                               QStringLiteral("--format"), QStringLiteral("json")});
        const test::CliRun fromStdin = test::finishCli(piped);
        QCOMPARE(fromStdin.exitCode, 0);
        QCOMPARE(test::parseJson(fromStdin.out)[QLatin1String("scan")].toObject()[QLatin1String("keys")].toInt(), 13);

        // The lint of a file: findings, and the exit code of findings (here none at error level).
        const test::CliRun linted = test::runCli({QStringLiteral("lint"), QStringLiteral("--rdb"), encodings});
        QVERIFY2(linted.exitCode == 0 || linted.exitCode == 1, linted.err.constData());
        QVERIFY(!linted.out.isEmpty());

        // Not an RDB file; a file cut in the middle: exit 2, the error with its offset, the keys before it.
        QTemporaryDir dir;
        const QString notRdb = dir.filePath(QStringLiteral("notes.rdb"));
        {
            QFile file(notRdb);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("hello, not a dump at all");
        }
        const test::CliRun refused = test::runCli({QStringLiteral("scan"), QStringLiteral("--rdb"), notRdb});
        QCOMPARE(refused.exitCode, 2);
        // It names the file and what it starts with (it once said "keylens-cli: 0").
        QVERIFY2(refused.err.contains(
                     QByteArray(notRdb.toUtf8() + ": this is not an RDB file: it starts with \"hello, no\"")),
                 refused.err.constData());
        QVERIFY(refused.out.isEmpty());
        const test::CliRun missing =
            test::runCli({QStringLiteral("scan"), QStringLiteral("--rdb"), dir.filePath(QStringLiteral("none.rdb"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("cannot open"));

        const QByteArray whole = fileBytes(encodings);
        const QString cut = dir.filePath(QStringLiteral("cut.rdb"));
        {
            QFile file(cut);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(whole.left(whole.size() * 2 / 3));
        }
        const test::CliRun partial = test::runCli(
            {QStringLiteral("scan"), QStringLiteral("--rdb"), cut, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(partial.exitCode, 2);
        QVERIFY2(partial.err.contains("damaged at byte"), partial.err.constData());
        const QJsonObject partialScan = test::parseJson(partial.out)[QLatin1String("scan")].toObject();
        QCOMPARE(partialScan[QLatin1String("complete")].toBool(), false);
        QVERIFY(partialScan[QLatin1String("keys")].toInt() > 0);
        QVERIFY(partialScan[QLatin1String("keys")].toInt() < 13);
        QVERIFY(partialScan[QLatin1String("error")].toString().contains(QLatin1String("byte")));
    }

    // --match and --type apply to a file as SCAN MATCH and SCAN TYPE apply to the server that loaded it: the same keys,
    // counted by a plain SCAN of that server. Every option a file cannot honour is refused with exit 2, named.
    void optionsAreHonouredOrRefused_data()
    {
        QTest::addColumn<QString>("match");
        QTest::addColumn<QString>("type");
        QTest::newRow("match") << QStringLiteral("set*") << QString();
        QTest::newRow("match class") << QStringLiteral("*zipped_[12]") << QString();
        QTest::newRow("type") << QString() << QStringLiteral("zset");
        QTest::newRow("both") << QStringLiteral("*zipped*") << QStringLiteral("set");
        QTest::newRow("none match") << QStringLiteral("nothing:*") << QString();
    }
    void optionsAreHonouredOrRefused()
    {
        QFETCH(QString, match);
        QFETCH(QString, type);
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.rdbDirectory = QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb");
        options.rdbFilename = QStringLiteral("redis_encodings.rdb");
        KEYLENS_START_SERVER(server, options);
        test::PlainClient client(server.port());
        std::set<QByteArray> truth;
        QByteArray cursor = "0";
        do {
            std::vector<QByteArray> command{"SCAN", cursor, "COUNT", "1000"};
            if (!match.isEmpty())
                command.insert(command.end(), {"MATCH", match.toUtf8()});
            if (!type.isEmpty())
                command.insert(command.end(), {"TYPE", type.toUtf8()});
            std::vector<QByteArray> reply = client.elements(command);
            cursor = reply.front();
            truth.insert(reply.begin() + 1, reply.end());
        } while (cursor != "0");

        QStringList filters;
        if (!match.isEmpty())
            filters << QStringLiteral("--match") << match;
        if (!type.isEmpty())
            filters << QStringLiteral("--type") << type;
        const QStringList json{QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--top"),
                               QStringLiteral("100")};
        const test::CliRun fromFile =
            test::runCli(QStringList{QStringLiteral("scan"), QStringLiteral("--rdb"), fixture("redis_encodings.rdb")} +
                         filters + json);
        QCOMPARE(fromFile.exitCode, 0);
        const QJsonObject report = test::parseJson(fromFile.out);
        QCOMPARE(report[QLatin1String("scan")].toObject()[QLatin1String("keys")].toInt(), int(truth.size()));
        std::set<QByteArray> listed;
        for (const QJsonValue key : report[QLatin1String("top_keys")].toArray())
            listed.insert(key.toObject()[QLatin1String("key")].toString().toUtf8());
        QCOMPARE(listed, truth);
        // The server's own scan through the same options agrees.
        const test::CliRun fromServer =
            test::runCli(QStringList{QStringLiteral("scan"), server.uri()} + filters + json);
        QCOMPARE(fromServer.exitCode, 0);
        QCOMPARE(test::parseJson(fromServer.out)[QLatin1String("scan")].toObject()[QLatin1String("keys")].toInt(),
                 int(truth.size()));
    }
    void optionsAFileCannotHonour()
    {
        const QString file = fixture("redis_encodings.rdb");
        const QList<QStringList> refused{
            {QStringLiteral("--count"), QStringLiteral("10")},
            {QStringLiteral("--speed"), QStringLiteral("gentle")},
            {QStringLiteral("--max-rate"), QStringLiteral("100")},
            {QStringLiteral("--reconnect"), QStringLiteral("2")},
            {QStringLiteral("--cluster")},
            {QStringLiteral("--from-replicas")},
            {QStringLiteral("--sample"), QStringLiteral("5")},
            {QStringLiteral("-p"), QStringLiteral("7000")},
            {QStringLiteral("-a"), QStringLiteral("secret")},
            {QStringLiteral("--tls")},
            {QStringLiteral("redis://127.0.0.1:7000")},
        };
        for (const QString& command : {QStringLiteral("scan"), QStringLiteral("lint")}) {
            for (const QStringList& option : refused) {
                const test::CliRun run = test::runCli(QStringList{command, QStringLiteral("--rdb"), file} + option);
                QVERIFY2(run.exitCode == 2, qPrintable(command + u' ' + option.join(u' ')));
                QVERIFY2(run.out.isEmpty(), qPrintable(option.join(u' ')));
                const QByteArray named = option.front().startsWith(QLatin1String("--")) ? option.front().toUtf8()
                                                                                        : QByteArray("connection flag");
                QVERIFY2(run.err.contains(named) || run.err.contains("no URI"), run.err.constData());
            }
        }
        // Commands that write to a server, or scan their own, take no file.
        for (const QStringList& command :
             {QStringList{QStringLiteral("delete"), QStringLiteral("--match"), QStringLiteral("x*")},
              QStringList{QStringLiteral("demo"), QStringLiteral("--keys"), QStringLiteral("10")}}) {
            const test::CliRun run = test::runCli(command + QStringList{QStringLiteral("--rdb"), file});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("--rdb does not apply"), run.err.constData());
        }
        // --no-memory and --no-access are honoured: no figure where none was asked for.
        const test::CliRun noMemory =
            test::runCli({QStringLiteral("scan"), QStringLiteral("--rdb"), file, QStringLiteral("--no-memory"),
                          QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(noMemory.exitCode, 0);
        QVERIFY(
            test::parseJson(noMemory.out)[QLatin1String("totals")].toObject()[QLatin1String("memory_bytes")].isNull());
    }

    // Files whose checksum is right but whose content no server would load: each is an error with its offset, never a
    // complete read. The truth: redis-server refuses each of them.
    void craftedFilesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const QByteArray stringKey = QByteArray("\x00\x01k\x01v", 5); // type 0, key "k", value "v"
        const QByteArray placeholder(8, '\0');                        // the CRC, filled in by withChecksum
        QTest::newRow("version 99") << withChecksum(QByteArray("REDIS0099\xff", 10) + placeholder)
                                    << QStringLiteral("version 99");
        QTest::newRow("SELECTDB 2^60") << withChecksum(QByteArray("REDIS0010\xfe\x81", 11) +
                                                       QByteArray("\x10\x00\x00\x00\x00\x00\x00\x00", 8) + stringKey +
                                                       QByteArray("\xff", 1) + placeholder)
                                       << QStringLiteral("SELECTDB names database 1152921504606846976");
        // A string compressed with LZF that claims 4 GiB from 12 bytes.
        QTest::newRow("LZF 4 GiB from 12 bytes")
            << withChecksum(QByteArray("REDIS0010\xfe\x00\x00\x01k\xc3\x0c\x81", 17) +
                            QByteArray("\x00\x00\x00\x01\x00\x00\x00\x00", 8) + QByteArray(12, 'x') +
                            QByteArray("\xff", 1) + placeholder)
            << QStringLiteral("claims 4294967296 bytes from 12");
        // A value compressed with LZF whose stream (twelve zero bytes: six one-byte literals) makes 6 bytes, not the
        // 1,000 it claims: within the ratio LZF can reach, so only walking the stream tells.
        QTest::newRow("LZF value short of its length")
            << withChecksum(QByteArray("REDIS0010\xfe\x00\x00\x01k\xc3\x0c\x43\xe8", 18) + QByteArray(12, '\0') +
                            QByteArray("\xff", 1) + placeholder)
            << QStringLiteral("does not decompress to the 1000 bytes it claims");
    }
    void craftedFilesAreRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const Read read = readBytes(bytes);
        QVERIFY(!read.summary.complete);
        QVERIFY(read.summary.error);
        QVERIFY2(read.summary.error->message.contains(message), qPrintable(read.summary.error->message));
        QVERIFY(read.summary.error->offset >= 5);

        QTemporaryDir dir;
        {
            QFile file(dir.filePath(QStringLiteral("dump.rdb")));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(bytes);
        }
        demo::RedisServerProcess server;
        demo::RedisServerProcess::Options options;
        options.rdbDirectory = dir.path();
        options.rdbFilename = QStringLiteral("dump.rdb");
        QVERIFY2(!server.start(options).ok(), "redis-server loaded it");

        // And the command line names the file and exits 2.
        const test::CliRun run =
            test::runCli({QStringLiteral("scan"), QStringLiteral("--rdb"), dir.filePath(QStringLiteral("dump.rdb")),
                          QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
        const QByteArray where = "byte " + QByteArray::number(read.summary.error->offset);
        QVERIFY2(run.err.contains(where), run.err.constData());
    }

    // A FIFO with no writer yet, and one whose writer stalls mid-file (a stalled gunzip): Ctrl-C and SIGTERM end the
    // read at once (they were ignored: only SIGKILL ended it), with the partial report of what was read.
    void signalsEndAReadThatWaits_data()
    {
        QTest::addColumn<bool>("writer");
        QTest::addColumn<int>("signal");
        QTest::newRow("no writer, SIGINT") << false << int(SIGINT);
        QTest::newRow("stalled writer, SIGTERM") << true << int(SIGTERM);
    }
    void signalsEndAReadThatWaits()
    {
        QFETCH(bool, writer);
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QProcess reading;
        test::startCli(reading, {QStringLiteral("scan"), QStringLiteral("--rdb"), fifo, QStringLiteral("--format"),
                                 QStringLiteral("json")});
        QVERIFY(reading.waitForStarted());
        // Waits until it holds the FIFO open: its signal handlers are in place by then.
        const auto holdsIt = [&] {
            for (const QFileInfo& fd :
                 QDir(QStringLiteral("/proc/%1/fd").arg(reading.processId())).entryInfoList(QDir::Files | QDir::System))
                if (fd.symLinkTarget() == fifo)
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(holdsIt(), 10000);
        QFile end(fifo);
        if (writer) {
            QVERIFY(end.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
            const QByteArray whole = fileBytes(fixture("rdbtools_rdb_version_8_with_64b_length_and_scores.rdb"));
            QCOMPARE(end.write(whole.left(whole.size() / 2)), whole.size() / 2); // and it never closes
        }
        QCOMPARE(::kill(pid_t(reading.processId()), signal), 0);
        QVERIFY(reading.waitForFinished(10000));
        QCOMPARE(reading.exitStatus(), QProcess::NormalExit);
        QCOMPARE(reading.exitCode(), 128 + signal); // 130 for SIGINT, 143 for SIGTERM: as a shell says
        const QJsonObject scan = test::parseJson(reading.readAllStandardOutput())[QLatin1String("scan")].toObject();
        QCOMPARE(scan[QLatin1String("complete")].toBool(true), false);
    }

    void damagedFiles()
    {
        // Empty aggregates and a ziplist whose entries overrun it: read to where they are, then a clear error.
        const Read corrupt = readBytes(fileBytes(fixture("redis_corrupt_ziplist.rdb")));
        QVERIFY(corrupt.summary.error);
        QVERIFY2(corrupt.summary.error->message.contains(QLatin1String("ziplist")),
                 qPrintable(corrupt.summary.error->message));
        QVERIFY(corrupt.summary.error->offset > 9);

        QVERIFY(readBytes({}).summary.error);
        QVERIFY(readBytes("REDIS").summary.error->message.contains(QLatin1String("not an RDB file")));
        const Read notRdb = readBytes("PK\x03\x04 a zip file, not a dump");
        QVERIFY(notRdb.summary.error->message.contains(QLatin1String("not an RDB file")));

        // A file of many keys, cut anywhere: the keys before the cut, an error at the cut, never a crash.
        const QByteArray whole = fileBytes(fixture("redis_encodings.rdb"));
        const std::size_t all = readBytes(whole).keys.size();
        for (qsizetype cut = 9; cut < whole.size(); cut += 7) {
            const Read partial = readBytes(whole.left(cut));
            QVERIFY(partial.summary.error);
            QVERIFY(!partial.summary.complete);
            QVERIFY(partial.summary.error->offset <= std::uint64_t(cut));
            QVERIFY(partial.keys.size() <= all);
        }
        // A flipped byte in a value: the checksum says so (or the value does not parse), with the offset.
        const QByteArray dumped = fileBytes(fixture("hdt_listpack.rdb"));
        for (qsizetype at = 9; at < dumped.size() - 8; at += 5) {
            QByteArray flipped = dumped;
            flipped[at] = char(flipped[at] ^ 0x20);
            const Read read = readBytes(flipped);
            QVERIFY2(read.summary.error, qPrintable(QStringLiteral("a flipped byte at %1 went unnoticed").arg(at)));
        }
    }
};

QTEST_GUILESS_MAIN(TestRdb)
#include "tst_rdb.moc"
