// The charts of a namespace of ids chart its patterns: `session:<hex>` is one bar of all those keys, not nine ids and
// "2,239 others", in the Keys view and the Patterns view alike. And no chart's title is cut: a title wider than its
// chart goes on two lines. The server (KEYS) says which keys are ids.
// clang-format off
#include "ui/QCustomPlotHeader.h" // first: see there
// clang-format on

#include "GrabAtSizes.h"
#include "PlainClient.h"
#include "TestServer.h"
#include "WindowScan.h"
#include "models/ChartJob.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/ChartsPane.h"
#include "ui/ChartsView.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"

#include <QCryptographicHash>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace keylens;

class TestChartPatterns : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;
    std::uint64_t m_ids = 0; // session:<40 hex digits>, as the server lists them

    models::ChartData waitForCharts(const std::function<bool()>& select)
    {
        QSignalSpy done(m_window->browser()->charts()->job(), &models::ChartJob::done);
        if (!select())
            return {};
        if (done.isEmpty())
            m_window->browser()->charts()->refresh(true, true);
        if (done.isEmpty() && !done.wait(10000))
            return {};
        return m_window->browser()->charts()->view()->data();
    }
    // One bar holds every id, under a placeholder; the word beside them is a bar of its own; no "others".
    void checkBars(const models::ChartData& data)
    {
        QCOMPARE(data.keys, m_ids + 1);
        QStringList labels;
        for (const models::ChartData::Bar& bar : data.byKeys)
            labels << QStringLiteral("%1=%2×%3").arg(bar.label).arg(bar.keys).arg(bar.count);
        const auto ids = std::find_if(data.byKeys.begin(), data.byKeys.end(),
                                      [&](const models::ChartData::Bar& bar) { return bar.keys == m_ids; });
        QVERIFY2(ids != data.byKeys.end(), qPrintable(labels.join(u' ')));
        QVERIFY2(ids->label.startsWith(u'<') && ids->label.endsWith(u'>'), qPrintable(ids->label));
        QVERIFY2(data.byKeys.size() == 2, qPrintable(labels.join(u' ')));
        QCOMPARE(std::max(data.byKeys[0].count, data.byKeys[1].count), std::uint64_t(1));
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 400; ++i) {
            const QByteArray id = QCryptographicHash::hash(QByteArray::number(i), QCryptographicHash::Sha1).toHex();
            commands.push_back({"SET", "session:" + id, "s"});
        }
        commands.push_back({"SET", "session:config", "c"});
        // Enough keys that the charts of the whole keyspace, once a scan is over, are counted on the chart worker
        // (ChartJob::WorkerThreshold).
        for (int i = 0; i < 210'000; ++i)
            commands.push_back({"SET", "bulk:" + QByteArray::number(i), "b"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        for (const QByteArray& key : client.allKeys("session:*")) {
            const QByteArray rest = key.mid(8);
            m_ids += rest.size() == 40 && std::all_of(rest.begin(), rest.end(), [](char c) { return isxdigit(c); });
        }
        QCOMPARE(m_ids, std::uint64_t(400));
        QVERIFY(m_dir.isValid());
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(test::scanInWindow(*m_window, m_server.connectionOptions()));
        m_window->browser()->showCharts(true);
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_server.stop();
    }

    void keysViewChartsThePatterns()
    {
        checkBars(waitForCharts([this] { return m_window->browser()->selectPath("session"); }));
        test::grabAtSizes(m_window.get(), QStringLiteral("charts-keys"));
    }

    void patternsViewChartsThePatterns()
    {
        m_window->browser()->showPatterns(true);
        models::PatternTreeModel* patterns = m_window->session()->patternModel();
        if (!patterns->isExact()) {
            QSignalSpy exact(patterns, &models::PatternTreeModel::exactTreeReady);
            QVERIFY(exact.wait(10000));
        }
        checkBars(waitForCharts([this] { return m_window->browser()->patternView()->selectPattern("session"); }));
        test::grabAtSizes(m_window.get(), QStringLiteral("charts-patterns"));
        m_window->browser()->showPatterns(false);
    }

    // A rescan with the charts shown: the trees' resets select nothing and the charts start again, while the session
    // still has the store that goes; that walk is dropped with it (it read freed memory, and crashed the window on its
    // next slice or on the chart worker). Every way a chart was shown: a namespace of the Keys view, a pattern, the
    // whole keyspace.
    void aRescanDropsTheChartsOfTheStoreThatGoes_data()
    {
        QTest::addColumn<bool>("patterns");
        QTest::addColumn<QByteArray>("selected");
        QTest::newRow("keys, a namespace") << false << QByteArray("session");
        QTest::newRow("patterns, a pattern") << true << QByteArray("session");
        QTest::newRow("keys, nothing") << false << QByteArray();
    }
    void aRescanDropsTheChartsOfTheStoreThatGoes()
    {
        QFETCH(bool, patterns);
        QFETCH(QByteArray, selected);
        ui::BrowserPane* browser = m_window->browser();
        browser->showPatterns(patterns);
        if (patterns) {
            models::PatternTreeModel* model = m_window->session()->patternModel();
            if (!model->isExact()) {
                QSignalSpy exact(model, &models::PatternTreeModel::exactTreeReady);
                QVERIFY(exact.wait(10000));
            }
            QVERIFY(browser->patternView()->selectPattern(selected));
        } else if (!selected.isEmpty()) {
            QVERIFY(browser->selectPath(selected));
        } else {
            browser->tree()->setCurrentIndex({});
        }
        browser->showCharts(true);
        QSignalSpy started(m_window->session(), &models::ScanSession::started);
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        m_window->connectTo(target);
        QVERIFY(started.count() == 1 || started.wait(10000));
        // Whatever runs now reads the store the scan fills, not the one let go.
        const keyspace::Keyspace* walked = browser->charts()->job()->store();
        QVERIFY2(!walked || walked == &m_window->session()->keyspace(), "a chart walks the store that went");
        QVERIFY(finished.wait(60000));
        browser->showPatterns(false);
    }

    // At 1600 px (and at 800) each title's lines fit its chart, and say the whole title.
    void titlesAreWhole()
    {
        for (const QSize size : {QSize(1600, 1000), QSize(800, 600)}) {
            m_window->resize(size);
            ui::ChartsView* view = m_window->browser()->charts()->view();
            for (int chart = 0; chart < ui::ChartsView::ChartCount; ++chart) {
                QCustomPlot* plot = view->plot(ui::ChartsView::Chart(chart));
                auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
                QVERIFY(title);
                const QFontMetrics metrics(title->font());
                const auto fits = [&] {
                    const QStringList lines = title->text().split(u'\n');
                    return std::all_of(lines.begin(), lines.end(), [&](const QString& line) {
                        return metrics.horizontalAdvance(line) <= plot->width() - 8;
                    });
                };
                QTRY_VERIFY2(fits(), qPrintable(QStringLiteral("%1 in %2 px").arg(title->text()).arg(plot->width())));
                QCOMPARE(title->text().split(u'\n').join(u' '), plot->objectName());
            }
        }
    }
};

QTEST_MAIN(TestChartPatterns)
#include "tst_chartpatterns.moc"
