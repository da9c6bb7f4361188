// The hash slot of a key, against a cluster-enabled redis-server's own CLUSTER KEYSLOT: plain, binary and 16 KB keys,
// and every hash-tag edge case the cluster specification names.
#include "PlainClient.h"
#include "TestServer.h"
#include "redis/ClusterSlot.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestClusterSlot : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        demo::RedisServerProcess::Options options;
        // One node is enough to ask: CLUSTER KEYSLOT needs cluster mode, not a formed cluster.
        options.extraArguments = {QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
                                  QStringLiteral("--cluster-config-file"),
                                  m_dir.filePath(QStringLiteral("nodes.conf"))};
        KEYLENS_START_SERVER(m_server, options);
    }
    void cleanupTestCase() { m_server.stop(); }

    void checksumOfTheSpecification() { QCOMPARE(redis::crc16Xmodem("123456789"), std::uint16_t(0x31c3)); }

    void slotsAgreeWithTheServer()
    {
        std::vector<QByteArray> keys = {"",
                                        "foo",
                                        "{user1000}.following",
                                        "{user1000}.followers",
                                        "foo{}{bar}",
                                        "foo{{bar}}zap",
                                        "foo{bar}{zap}",
                                        "{}x",
                                        "x{",
                                        "x}{y}",
                                        QByteArray("\xff\x00{\xfe}", 5),
                                        "user:" + QByteArray(16 * 1024, 'k')};
        QRandomGenerator random(12);
        for (int i = 0; i < 3000; ++i) {
            QByteArray key(random.bounded(1, 40), Qt::Uninitialized);
            for (char& byte : key)
                byte = char(random.bounded(256));
            if (i % 3 == 0)
                key.insert(random.bounded(key.size() + 1), i % 2 ? "{tag}" : "{");
            keys.push_back(key);
        }
        test::PlainClient client(m_server.port());
        for (const QByteArray& key : keys) {
            const long long truth = client.integer({"CLUSTER", "KEYSLOT", key});
            QVERIFY2(truth >= 0, client.lastError().constData());
            QCOMPARE(redis::clusterSlot(key), std::uint16_t(truth));
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterSlot)
#include "tst_clusterslot.moc"
