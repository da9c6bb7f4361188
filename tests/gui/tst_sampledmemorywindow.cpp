// The window says which memory figures the server estimated from 5 elements (MEMORY USAGE's default sampling), in the
// status line, a namespace's details and a key's Memory line; measured whole (Scan > Measure big collections whole,
// keylens --exact-memory) they are what SAMPLES 0 says, and nothing is said estimated.
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "keyspace/Units.h"
#include "ui/BrowserPane.h"
#include "ui/KeyDetailsView.h"
#include "ui/MainWindow.h"
#include "ui/NamespaceDetailsView.h"

#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestSampledMemoryWindow : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;

    void selectAndLoad(ui::MainWindow& window, const QByteArray& path)
    {
        QSignalSpy loaded(window.browser()->keyDetails(), &ui::KeyDetailsView::loaded);
        QVERIFY(window.browser()->selectPath(path));
        if (!window.browser()->keyDetails()->isLoaded())
            QVERIFY(loaded.wait(10000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        // A hash of 6 fields of different sizes, some over 64 bytes: in a hash table, measured on 5 of its 6 fields.
        std::vector<QByteArray> hash = {"HSET", "jobs:1"};
        for (int i = 1; i <= 6; ++i)
            hash.insert(hash.end(), {"f" + QByteArray::number(i), QByteArray(i * 100, 'j')});
        QCOMPARE(client.pipeline({hash,
                                  {"HSET", "jobs:2", "a", "1", "b", "2"},
                                  {"SET", "other:1", "x"},
                                  {"SET", "other:2", QByteArray(500, 'y')}}),
                 std::size_t(0));
        QVERIFY(client.command({"OBJECT", "ENCODING", "jobs:1"}) == "hashtable");
        QVERIFY(client.integer({"MEMORY", "USAGE", "jobs:1"}) !=
                client.integer({"MEMORY", "USAGE", "jobs:1", "SAMPLES", "0"}));
    }
    void cleanupTestCase() { m_server.stop(); }

    void theWindowSaysWhatWasSampled()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("a.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.show();
        QVERIFY(test::scanInWindow(window, m_server.connectionOptions()));
        QVERIFY2(window.statusText().contains(QStringLiteral("(1 key estimated by the server from 5 elements)")),
                 qPrintable(window.statusText()));

        QVERIFY(window.browser()->selectPath("jobs"));
        const QString notes = window.browser()->namespaceDetails()->notesText();
        QVERIFY2(notes.contains(QStringLiteral("The server estimated the memory of 1 key (")), qPrintable(notes));
        QVERIFY(window.browser()->selectPath("other"));
        QVERIFY(!window.browser()->namespaceDetails()->notesText().contains(QStringLiteral("estimated")));

        selectAndLoad(window, "jobs:1");
        const QString memory = window.browser()->keyDetails()->fieldText(QStringLiteral("Memory"));
        QVERIFY2(memory.contains(QStringLiteral("estimated by the server from 5 elements")), qPrintable(memory));
        selectAndLoad(window, "jobs:2");
        QVERIFY(!window.browser()->keyDetails()->fieldText(QStringLiteral("Memory")).contains(QStringLiteral("estim")));
    }

    // keylens --exact-memory: the scan measures the hash whole.
    void measuredWholeNothingIsSaidEstimated()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("b.ini")), QSettings::IniFormat);
        ui::MainWindow window(&settings);
        window.show();
        window.measureCollectionsWhole();
        QVERIFY(test::scanInWindow(window, m_server.connectionOptions()));
        QVERIFY2(!window.statusText().contains(QStringLiteral("estimated")), qPrintable(window.statusText()));
        QVERIFY(window.browser()->selectPath("jobs"));
        QVERIFY(!window.browser()->namespaceDetails()->notesText().contains(QStringLiteral("estimated")));
        test::PlainClient client(m_server.port());
        const long long whole = client.integer({"MEMORY", "USAGE", "jobs:1", "SAMPLES", "0"}) +
                                client.integer({"MEMORY", "USAGE", "jobs:2", "SAMPLES", "0"});
        const long long sampled =
            client.integer({"MEMORY", "USAGE", "jobs:1"}) + client.integer({"MEMORY", "USAGE", "jobs:2"});
        QVERIFY(keyspace::formatBytes(std::uint64_t(sampled)) != keyspace::formatBytes(std::uint64_t(whole)));
        const QString memory = window.browser()->namespaceDetails()->fieldText(QStringLiteral("Memory"));
        QVERIFY2(memory.startsWith(QString::fromUtf8(keyspace::formatBytes(std::uint64_t(whole)))), qPrintable(memory));
        // Not saved: the next window measures as the settings say.
        QVERIFY(!settings.value(QStringLiteral("scan/exactMemory"), false).toBool());
    }
};

QTEST_MAIN(TestSampledMemoryWindow)
#include "tst_sampledmemorywindow.moc"
