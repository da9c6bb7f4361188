// The offer to split on another delimiter never makes the keyspace look worse than before it: keys that would get an
// empty segment (`cache:/api/v1/users/1` split on ':/') are not offered the split; an offer shows what one of its keys
// becomes before it is taken, and taking it leaves no empty segment. The keys are the server's (KEYS).
#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "models/ScanSession.h"
#include "ui/MainWindow.h"

#include <QFrame>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestDelimiterSuggestion : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    void scan() { QVERIFY(test::scanInWindow(*m_window, m_server.connectionOptions())); }
    QFrame* bar() const { return m_window->findChild<QFrame*>(QStringLiteral("delimiterSuggestion")); }
    // Nodes named "" in the store: what an empty-segment finding is about.
    std::size_t emptySegments() const
    {
        const keyspace::Keyspace& store = m_window->session()->keyspace();
        std::size_t empty = 0;
        for (keyspace::NodeId node = 1; node < store.nodeCount(); ++node)
            empty += store.segment(node).isEmpty() ? 1 : 0;
        return empty;
    }
    void fill(const std::vector<std::vector<QByteArray>>& commands)
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

private Q_SLOTS:
    void init()
    {
        KEYLENS_START_SERVER(m_server);
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1100, 700);
        m_window->show();
    }
    void cleanup()
    {
        m_window.reset();
        m_server.stop();
    }

    // users/N/avatar use '/' between words and ids, but cache:/api/… has '/' right after ':': split on both, each of
    // those would get an empty level (a node named "", an empty-segment warning).
    void noOfferThatLeavesEmptySegments()
    {
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 1; i <= 300; ++i)
            commands.push_back({"SET", "cache:/api/v1/users/" + QByteArray::number(i), "{}"});
        for (int i = 1; i <= 80; ++i)
            commands.push_back({"SET", "users/" + QByteArray::number(i) + "/avatar", "a.png"});
        fill(commands);
        QCOMPARE(test::PlainClient(m_server.port()).allKeys("*:/*").size(), std::size_t(300));
        scan();
        QVERIFY(bar());
        QVERIFY2(!bar()->isVisible(), qPrintable(bar()->findChild<QLabel*>()->text()));
        QCOMPARE(emptySegments(), std::size_t(0));
        test::grabAtSizes(m_window.get(), QStringLiteral("delimiter-none"));
    }

    // An offer shows one of its keys before and after the split; taken, it leaves no more empty segments.
    void anOfferPreviewsItsEffect()
    {
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 1; i <= 80; ++i)
            commands.push_back({"SET", "users/" + QByteArray::number(i) + "/avatar", "a.png"});
        fill(commands);
        scan();
        QVERIFY(bar() && bar()->isVisible());
        const QString text = bar()->findChild<QLabel*>()->text();
        // The example is one of the server's keys, and the preview its levels.
        const std::vector<QByteArray> keys = test::PlainClient(m_server.port()).allKeys("users/*");
        const auto shown = std::find_if(keys.begin(), keys.end(), [&](const QByteArray& key) {
            return text.contains(QString::fromUtf8(key)) &&
                   text.contains(QString::fromUtf8(key).replace(u'/', QStringLiteral(" › ")));
        });
        QVERIFY2(shown != keys.end(), qPrintable(text));
        test::grabAtSizes(m_window.get(), QStringLiteral("delimiter-offer"));
        const std::size_t before = emptySegments();
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        bar()->findChild<QPushButton*>()->click();
        QVERIFY(finished.wait(60000));
        QCOMPARE(m_window->session()->keyspace().delimiters().bytes(), QByteArray(":/"));
        QVERIFY(emptySegments() <= before);
    }
};

QTEST_MAIN(TestDelimiterSuggestion)
#include "tst_delimitersuggestion.moc"
