// The window on a live three-shard cluster: one tree of every shard's keys, the Shards tab with each node's own
// figures, a key of each shard opened in the details pane (read where it lives), and the biggest keys' slots.
#include "ClusterSlots.h"
#include "PlainClient.h"
#include "demo/RedisCluster.h"
#include "models/ScanSession.h"
#include "redis/ClusterSlot.h"
#include "ui/BrowserPane.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/ShardsPane.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestClusterWindow : public QObject
{
    Q_OBJECT

    demo::RedisCluster m_cluster;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

private Q_SLOTS:
    void initTestCase()
    {
        const redis::Status started = m_cluster.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        // A key per id, spread over the slots, and one big hash that makes its shard hot.
        std::map<quint16, std::vector<std::vector<QByteArray>>> writes;
        const std::vector<quint16> slotOwners = test::slotPorts(m_cluster.node(0).port());
        const auto write = [&](std::vector<QByteArray> command) {
            writes[slotOwners[redis::clusterSlot(command[1])]].push_back(std::move(command));
        };
        for (int i = 0; i < 3000; ++i)
            write({"SET", "user:" + QByteArray::number(i), "v"});
        std::vector<QByteArray> big = {"HSET", "big:hash"};
        for (int f = 0; f < 20000; ++f) {
            big.push_back("f" + QByteArray::number(f));
            big.push_back(QByteArray(40, 'x'));
        }
        write(big);
        for (auto& [port, commands] : writes)
            QCOMPARE(test::PlainClient(port).pipeline(commands), std::size_t(0));

        QVERIFY(m_settingsDir.isValid());
        m_settings = std::make_unique<QSettings>(m_settingsDir.filePath(QStringLiteral("k.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1300, 800);
        m_window->show();
        ui::MainWindow::Target target;
        target.options = m_cluster.node(2).connectionOptions(); // any node leads to the whole cluster
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        m_window->connectTo(target);
        QVERIFY(finished.wait(60000));
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_cluster.stop();
    }

    void theTreeHoldsEveryShardsKeys()
    {
        long long keys = 0;
        for (std::size_t node = 0; node < m_cluster.size(); ++node)
            keys += test::PlainClient(m_cluster.node(node).port()).integer({"DBSIZE"});
        QCOMPARE(qlonglong(m_window->session()->keyspace().keyCount()), keys);
    }

    void theShardsTabShowsEachNodesFigures()
    {
        auto* pane = m_window->findChild<ui::ShardsPane*>();
        QVERIFY(pane);
        auto* tabs = qobject_cast<QTabWidget*>(pane->parentWidget()->parentWidget());
        QVERIFY(tabs);
        QVERIFY(tabs->indexOf(pane) >= 0);
        const std::vector<scan::ShardScan> shards = m_window->session()->shards();
        QCOMPARE(shards.size(), std::size_t(3));
        quint16 hot = 0;
        for (const scan::ShardScan& shard : shards) {
            const quint16 port = quint16(shard.address.section(u':', -1).toUInt());
            test::PlainClient client(port);
            QCOMPARE(qlonglong(shard.keys), client.integer({"DBSIZE"}));
            if (client.integer({"EXISTS", "big:hash"}) == 1)
                hot = port;
        }
        QVERIFY(hot != 0);
        // The big hash's shard is named as the hot one.
        QVERIFY2(pane->summaryText().contains(QStringLiteral("127.0.0.1:%1 holds").arg(hot)),
                 qPrintable(pane->summaryText()));
    }

    void aKeyOfEachShardOpensInTheDetails()
    {
        for (std::size_t node = 0; node < m_cluster.size(); ++node) {
            test::PlainClient client(m_cluster.node(node).port());
            const std::vector<QByteArray> page = client.elements({"SCAN", "0", "MATCH", "user:*", "COUNT", "1000"});
            QVERIFY(page.size() > 1);
            const QByteArray key = page[1];
            QSignalSpy loaded(m_window->browser()->keyDetails(), &ui::KeyDetailsView::loaded);
            QVERIFY(m_window->browser()->selectPath(key));
            if (!m_window->browser()->keyDetails()->isLoaded())
                QVERIFY(loaded.wait(10000));
            QCOMPARE(m_window->browser()->keyDetails()->key(), key);
            QCOMPARE(m_window->browser()->keyDetails()->fieldText(QStringLiteral("Type")), QStringLiteral("string"));
            QCOMPARE(m_window->browser()->keyDetails()->valueText(), QStringLiteral("v"));
        }
    }
};

QTEST_MAIN(TestClusterWindow)
#include "tst_clusterwindow.moc"
