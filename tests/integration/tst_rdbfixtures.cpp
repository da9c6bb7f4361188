// Keyspaces we did not write: real RDB files from public projects (tests/fixtures/rdb), loaded into
// a private server and scanned; every key must come back byte-exact with the server's type and memory.
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "keyspace/Keyspace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestRdbFixtures : public QObject
{
    Q_OBJECT

    // Starts `server` on a copy of the fixture: the server must not write into the checkout.
    static redis::Status startOnFixture(demo::RedisServerProcess& server, QTemporaryDir& directory, const QString& file)
    {
        if (!QFile::copy(fixture(file), directory.filePath(QStringLiteral("dump.rdb"))))
            return redis::Error{redis::ErrorKind::Usage, QStringLiteral("cannot copy ") + fixture(file)};
        demo::RedisServerProcess::Options options;
        options.rdbDirectory = directory.path();
        options.rdbFilename = QStringLiteral("dump.rdb");
        return server.start(options);
    }

    static QString fixture(const QString& name) { return QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb/") + name; }

private Q_SLOTS:
    // The files are the ones MANIFEST.txt describes, byte for byte: an editor, a line-ending filter or a truncated
    // copy would make every other test here measure something else.
    void fixturesMatchTheirManifest()
    {
        QFile manifest(fixture(QStringLiteral("MANIFEST.txt")));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        int checked = 0;
        while (!manifest.atEnd()) {
            const QList<QByteArray> fields = manifest.readLine().split('|');
            if (fields.size() < 5 || !fields[0].trimmed().endsWith(".rdb"))
                continue;
            const QString name = QString::fromLatin1(fields[0].trimmed());
            QFile file(fixture(name));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(name));
            const QByteArray digest = QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
            QCOMPARE(digest, fields[4].trimmed());
            ++checked;
        }
        QCOMPARE(checked, 15);
    }

    void scansEveryLoadableFixture_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("db");
        QTest::addColumn<int>("expectedKeys"); // from the fixture's MANIFEST; -1: ask the server only
        QTest::newRow("encodings") << QStringLiteral("redis_encodings.rdb") << 0 << -1;
        QTest::newRow("listpack") << QStringLiteral("hdt_listpack.rdb") << 0 << -1;
        QTest::newRow("empty") << QStringLiteral("rdbtools_empty_database.rdb") << 0 << 0;
        QTest::newRow("expired") << QStringLiteral("rdbtools_keys_with_expiry.rdb") << 0 << 0;
        QTest::newRow("db0") << QStringLiteral("rdbtools_multiple_databases.rdb") << 0 << -1;
        QTest::newRow("db2") << QStringLiteral("rdbtools_multiple_databases.rdb") << 2 << -1;
        QTest::newRow("non-ascii") << QStringLiteral("rdbtools_non_ascii_values.rdb") << 0 << -1;
        QTest::newRow("rdb8 scores") << QStringLiteral("rdbtools_rdb_version_8_with_64b_length_and_scores.rdb") << 0
                                     << 2;
        QTest::newRow("streams") << QStringLiteral("rdbtools_redis_50_with_streams.rdb") << 0 << -1;
        QTest::newRow("huge key names") << QStringLiteral("rdbtools_uncompressible_string_keys.rdb") << 0 << -1;
        QTest::newRow("zipmap big values") << QStringLiteral("rdbtools_zipmap_with_big_values.rdb") << 0 << -1;
        QTest::newRow("empty aggregates") << QStringLiteral("redis_corrupt_empty_keys.rdb") << 0 << 0;
    }
    void scansEveryLoadableFixture()
    {
        QFETCH(QString, file);
        QFETCH(int, db);
        QFETCH(int, expectedKeys);
        QTemporaryDir directory;
        demo::RedisServerProcess server;
        const redis::Status started = startOnFixture(server, directory, file);
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));

        test::PlainClient truth(server.port());
        QCOMPARE(truth.command({"SELECT", QByteArray::number(db)}), QByteArray("OK"));
        const auto facts = truth.inspectAll();
        if (expectedKeys >= 0)
            QCOMPARE(int(facts.size()), expectedKeys);

        keyspace::Keyspace store;
        scan::ScanOptions scan;
        scan.connection = server.connectionOptions();
        scan.connection.db = db;
        const auto result = test::scanInto(store, scan);
        QVERIFY(result.summary.complete);
        QVERIFY(!result.summary.error);
        QCOMPARE(std::size_t(store.keyCount()), facts.size());
        for (const auto& [key, fact] : facts) {
            const keyspace::NodeId node = store.find(key);
            QVERIFY(node != keyspace::InvalidNode && store.isKey(node));
            QCOMPARE(store.path(node), key);
            QCOMPARE(keyspace::keyTypeName(store.keyInfo(node).type).toByteArray(), fact.type);
            QCOMPARE(std::int64_t(store.keyInfo(node).memoryBytes), std::int64_t(fact.memory));
        }
    }

    void refusedFixturesGiveAClearError()
    {
        const QString file = QStringLiteral("redis_corrupt_ziplist.rdb");
        QTemporaryDir directory;
        demo::RedisServerProcess server;
        const redis::Status started = startOnFixture(server, directory, file);
        QVERIFY(!started.ok());
        QVERIFY(started.error().message.contains(QStringLiteral("redis-server exited")));
    }
};

QTEST_GUILESS_MAIN(TestRdbFixtures)
#include "tst_rdbfixtures.moc"
