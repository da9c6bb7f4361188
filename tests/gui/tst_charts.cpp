// The Charts tab on a real server: what QCustomPlot draws is what ChartData says (the model's figures are
// checked against the server in tst_keytreemodel), a pattern's charts total its members, the charts
// follow the selection, and each chart exports to PNG, SVG and PDF and copies to the clipboard.
// clang-format off
#include "ui/QCustomPlotHeader.h" // first: see there
// clang-format on

#include "PlainClient.h"
#include "TestServer.h"
#include "models/ChartJob.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "ui/BrowserPane.h"
#include "ui/ChartsPane.h"
#include "ui/ChartsView.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace keylens;

class TestCharts : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_settingsDir;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ui::MainWindow> m_window;

    static QVector<double> valuesOf(QCustomPlot* plot, int plottable = 0)
    {
        QVector<double> values;
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(plottable));
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            values << it->value;
        return values;
    }

    // The tick labels drawn on the axes that carry the bars' values (after a replot), the empty ones left out.
    static QStringList valueAxisLabels(QCustomPlot* plot)
    {
        QList<QCPAxis*> axes;
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAxis* axis = plot->plottable(i)->valueAxis();
            if (!axes.contains(axis))
                axes << axis;
        }
        QStringList labels;
        for (QCPAxis* axis : axes) {
            if (!axis->visible() || !axis->tickLabels())
                continue;
            for (const QString& label : axis->tickVectorLabels())
                if (!label.isEmpty())
                    labels << label;
        }
        return labels;
    }

    // What the chart says when it has nothing to draw (an item text named so), or null.
    static QCPItemText* noteOf(QCustomPlot* plot)
    {
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto* text = qobject_cast<QCPItemText*>(plot->item(i));
            if (text && text->objectName() == QStringLiteral("emptyNote"))
                return text;
        }
        return nullptr;
    }

    // Selects a node and waits for its charts.
    models::ChartData chartsOf(const QByteArray& path)
    {
        QSignalSpy done(m_window->browser()->charts()->job(), &models::ChartJob::done);
        if (!m_window->browser()->selectPath(path))
            return {};
        if (done.isEmpty())
            m_window->browser()->charts()->refresh(true, true); // it was selected already
        if (done.isEmpty() && !done.wait(10000))
            return {};
        return m_window->browser()->charts()->view()->data();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<QSettings>(m_settingsDir.filePath(QStringLiteral("keylens.ini")), QSettings::IniFormat);
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 300; ++i)
            commands.push_back({"HSET", "user:" + QByteArray::number(i) + ":profile", "name", QByteArray(i % 50, 'n')});
        for (int i = 0; i < 120; ++i)
            commands.push_back({"SET", "session:" + QByteArray::number(i), "s", "EX", QByteArray::number(60 + i * 30)});
        for (int i = 0; i < 15; ++i)
            commands.push_back({"RPUSH", "queue:" + QByteArray::number(i), "job"});
        commands.push_back({"SET", "a:very:long:key:name:that:is:far:beyond:the:forty:four:byte:line", "x"});
        // Fifteen words below one namespace: nine bars and "others" (ids share one bar: tst_chartpatterns).
        for (int i = 0; i < 15; ++i)
            commands.push_back({"SET", "setting:" + QByteArray(1, char('a' + i)) + "opt", QByteArray(i + 1, 's')});
        QCOMPARE(client.pipeline(commands), std::size_t(0));

        m_window = std::make_unique<ui::MainWindow>(m_settings.get());
        m_window->resize(1400, 900);
        m_window->show();
        ui::MainWindow::Target target;
        target.options = m_server.connectionOptions();
        QSignalSpy finished(m_window.get(), &ui::MainWindow::scanFinished);
        m_window->connectTo(target);
        QVERIFY(finished.wait(60000));
        m_window->browser()->showCharts(true);
    }

    void plotsDrawTheFigures()
    {
        const models::ChartData words = chartsOf("setting");
        QCOMPARE(words.keys, std::uint64_t(15));
        ui::ChartsView* view = m_window->browser()->charts()->view();
        // Bars by keys: the biggest first, then "others" summing the rest.
        const QVector<double> byKeys = valuesOf(view->plot(ui::ChartsView::ByKeys));
        QCOMPARE(byKeys.size(), qsizetype(models::ChartData::TopBars + 1));
        double sum = 0;
        for (std::size_t i = 0; i < words.byKeys.size(); ++i) {
            QCOMPARE(byKeys[qsizetype(i)], double(words.byKeys[i].keys));
            sum += byKeys[qsizetype(i)];
        }
        QCOMPARE(sum, 15.0);
        QCOMPARE(words.byKeys.back().count, std::uint64_t(15 - models::ChartData::TopBars));

        const models::ChartData data = chartsOf("user");
        QCOMPARE(data.keys, std::uint64_t(300));
        const QVector<double> byMemory = valuesOf(view->plot(ui::ChartsView::ByMemory));
        QCOMPARE(byMemory.front(), double(data.byMemory.front().memoryBytes));
        // One hash type; all without TTL.
        QCOMPARE(valuesOf(view->plot(ui::ChartsView::Types)), QVector<double>{300.0});
        QCOMPARE(valuesOf(view->plot(ui::ChartsView::Ttl), 0).front(), 300.0);
        double lengths = 0;
        for (const double count : valuesOf(view->plot(ui::ChartsView::NameLengths)))
            lengths += count;
        QCOMPARE(lengths, 300.0);
    }

    void timelineAndTtlOfExpiringKeys()
    {
        const models::ChartData data = chartsOf("session");
        QCOMPARE(data.keys, std::uint64_t(120));
        // TTLs of 1 to 60.5 minutes, one per half minute: none without, the last two past an hour.
        QCOMPARE(data.ttlKeys[0], std::uint64_t(0));
        QCOMPARE(data.ttlKeys[1] + data.ttlKeys[2] + data.ttlKeys[3], std::uint64_t(120));
        QVERIFY(data.ttlKeys[3] <= 2);
        const QVector<double> timeline =
            valuesOf(m_window->browser()->charts()->view()->plot(ui::ChartsView::Timeline));
        double expiring = 0;
        for (const double perMinute : timeline) {
            QVERIFY(perMinute <= 3);
            expiring += perMinute;
        }
        QCOMPARE(expiring, 120.0);
    }

    void patternChartsTotalTheirMembers()
    {
        m_window->browser()->showPatterns(true);
        models::PatternTreeModel* patterns = m_window->session()->patternModel();
        if (!patterns->isExact()) {
            QSignalSpy exact(patterns, &models::PatternTreeModel::exactTreeReady);
            QVERIFY(exact.wait(10000));
        }
        QSignalSpy done(m_window->browser()->charts()->job(), &models::ChartJob::done);
        QVERIFY(m_window->browser()->patternView()->selectPattern("user:<int>"));
        QVERIFY(!done.isEmpty() || done.wait(10000));
        const models::ChartData data = m_window->browser()->charts()->view()->data();
        QCOMPARE(data.keys, std::uint64_t(300));
        // Its bars are its child patterns: `profile` for all 300 members.
        QCOMPARE(data.byKeys.size(), std::size_t(1));
        QCOMPARE(data.byKeys.front().label, QStringLiteral("profile"));
        m_window->browser()->showPatterns(false);
    }

    void exportAndCopy()
    {
        QTemporaryDir dir;
        QCustomPlot* plot = m_window->browser()->charts()->view()->plot(ui::ChartsView::ByMemory);
        const struct
        {
            ui::ChartsView::Format format;
            const char* file;
            QByteArray magic;
        } exports[] = {{ui::ChartsView::Format::Png, "chart.png", "\x89PNG"},
                       {ui::ChartsView::Format::Svg, "chart.svg", "<?xml"},
                       {ui::ChartsView::Format::Pdf, "chart.pdf", "%PDF"}};
        for (const auto& e : exports) {
            const QString file = dir.filePath(QString::fromLatin1(e.file));
            QVERIFY2(ui::ChartsView::exportPlot(plot, file, e.format), e.file);
            QFile written(file);
            QVERIFY(written.open(QIODevice::ReadOnly));
            const QByteArray bytes = written.readAll();
            QVERIFY2(bytes.startsWith(e.magic), e.file);
            QVERIFY2(bytes.size() > 500, e.file);
        }
        const QList<QAction*> actions = plot->actions();
        QCOMPARE(actions.size(), 4);
        QGuiApplication::clipboard()->clear();
        actions.back()->trigger(); // Copy
        QVERIFY(!QGuiApplication::clipboard()->pixmap().isNull());
    }

    // At a narrow width the byte labels under the bars do not overprint (each label's box clear of the next), and
    // the wheel over a chart scrolls the panel instead of being swallowed.
    void narrowChartsStayReadableAndTheWheelScrolls()
    {
        chartsOf("user");
        ui::ChartsView* view = m_window->browser()->charts()->view();
        QCustomPlot* plot = view->plot(ui::ChartsView::ByMemory);
        m_window->resize(800, 600);
        QTRY_VERIFY(plot->width() < 360);
        plot->replot();
        QVector<double> ticks;
        QVector<QString> labels;
        plot->xAxis->ticker()->generate(plot->xAxis->range(), plot->locale(), QLatin1Char('f'), 2, ticks, nullptr,
                                        &labels);
        QVERIFY(ticks.size() >= 2);
        const QFontMetrics metrics(plot->xAxis->tickLabelFont());
        for (qsizetype i = 0; i + 1 < ticks.size(); ++i) {
            // Labels are centred on their ticks: neighbours clear of each other by a few pixels.
            const double apart = plot->xAxis->coordToPixel(ticks[i + 1]) - plot->xAxis->coordToPixel(ticks[i]);
            const double needed =
                (metrics.horizontalAdvance(labels[i]) + metrics.horizontalAdvance(labels[i + 1])) / 2.0 + 4;
            QVERIFY2(apart >= needed, qPrintable(QStringLiteral("'%1' and '%2' %3 px apart, %4 needed")
                                                     .arg(labels[i], labels[i + 1])
                                                     .arg(apart)
                                                     .arg(needed)));
        }
        auto* scroll = view->findChild<QScrollArea*>();
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
        scroll->verticalScrollBar()->setValue(0);
        QWheelEvent wheel(QPointF(20, 20), plot->mapToGlobal(QPointF(20, 20)), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &wheel);
        QVERIFY(scroll->verticalScrollBar()->value() > 0);
        m_window->resize(1400, 900);
    }

    // At 800 px the charts are one to a row: two side by side were wider than the pane, which scrolled sideways and
    // cut the second of each row at its edge. Back at 1400 px they are two to a row again.
    void chartsFitThePaneAt800()
    {
        chartsOf("user");
        ui::ChartsView* view = m_window->browser()->charts()->view();
        auto* scroll = view->findChild<QScrollArea*>();
        QVERIFY(scroll);
        const auto outside = [&] {
            QStringList cut;
            for (int chart = 0; chart < ui::ChartsView::ChartCount; ++chart) {
                QCustomPlot* plot = view->plot(ui::ChartsView::Chart(chart));
                const int right = plot->mapTo(scroll->viewport(), QPoint(plot->width(), 0)).x();
                if (right > scroll->viewport()->width())
                    cut << QStringLiteral("%1 ends at %2 of %3 px")
                               .arg(plot->objectName())
                               .arg(right)
                               .arg(scroll->viewport()->width());
            }
            if (scroll->horizontalScrollBar()->maximum() > 0)
                cut << QStringLiteral("scrolls sideways");
            return cut.join(QStringLiteral("; "));
        };
        m_window->resize(800, 600);
        QTRY_COMPARE(m_window->size(), QSize(800, 600));
        QTRY_VERIFY(scroll->viewport()->width() < 2 * view->plot(ui::ChartsView::ByMemory)->minimumWidth());
        QTRY_VERIFY2(outside().isEmpty(), qPrintable(outside()));
        // Its memory axis says more than "0 B" (one tick step was rounded up past the top of the range).
        QCustomPlot* memory = view->plot(ui::ChartsView::ByMemory);
        memory->replot();
        QVERIFY2(valueAxisLabels(memory).size() >= 2, qPrintable(valueAxisLabels(memory).join(u' ')));
        m_window->resize(1400, 900);
        QTRY_COMPARE(m_window->size(), QSize(1400, 900));
        QTRY_VERIFY(scroll->viewport()->width() > 2 * view->plot(ui::ChartsView::ByMemory)->minimumWidth());
        QTRY_VERIFY2(outside().isEmpty(), qPrintable(outside()));
        QCustomPlot* first = view->plot(ui::ChartsView::ByMemory);
        QCustomPlot* second = view->plot(ui::ChartsView::ByKeys);
        QTRY_COMPARE(second->y(), first->y()); // side by side
    }

    // A chart with nothing to draw says so in words that fit it, and its value axis shows no ticks: an empty chart
    // labelled its memory axis "1 B 1 B 0 B" (a 0..1 range cut in halves and rounded). Here `user` (no key with a
    // TTL, no idle time measured), one key (no TTL), and a keyspace of no keys at all; at 1600 px, where the idle
    // chart's note ran past both edges, and at 800 px.
    void emptyChartsSaySo()
    {
        test::PlainClient client(m_server.port());
        // The truth of what is empty, from the server: `user` has no TTL anywhere.
        for (const QByteArray& key : client.allKeys("user:*"))
            QCOMPARE(client.integer({"PTTL", key}), -1LL);
        ui::ChartsView* view = m_window->browser()->charts()->view();
        const QByteArray key = "a:very:long:key:name:that:is:far:beyond:the:forty:four:byte:line";
        QCOMPARE(client.integer({"PTTL", key}), -1LL);
        for (const QSize size : {QSize(1600, 1000), QSize(800, 600)}) {
            m_window->resize(size);
            QTRY_COMPARE(m_window->size(), size);
            for (const QByteArray& path : {QByteArray("user"), key, QByteArray()}) {
                if (path.isEmpty())
                    view->showData(QStringLiteral("nothing"), models::ChartData{}); // a keyspace of no keys
                else
                    QCOMPARE(chartsOf(path).keys, std::uint64_t(path == "user" ? 300 : 1));
                for (int i = 0; i < 5; ++i)
                    QCoreApplication::processEvents();
                QStringList empty;
                for (int chart = 0; chart < ui::ChartsView::ChartCount; ++chart) {
                    QCustomPlot* plot = view->plot(ui::ChartsView::Chart(chart));
                    plot->replot();
                    const QString where = QStringLiteral("%1 at %2 px, %3: ")
                                              .arg(QString::fromUtf8(path.isEmpty() ? "no keys" : path))
                                              .arg(size.width())
                                              .arg(plot->objectName());
                    double sum = 0;
                    for (int i = 0; i < plot->plottableCount(); ++i)
                        for (const double value : valuesOf(plot, i))
                            sum += value;
                    const QStringList shown = valueAxisLabels(plot);
                    QCPItemText* note = noteOf(plot);
                    if (sum > 0) {
                        // Drawn: its value labels say different things, and no note says it is empty.
                        QVERIFY2(QSet<QString>(shown.begin(), shown.end()).size() == shown.size(),
                                 qPrintable(where + shown.join(u' ')));
                        QVERIFY2(!note || !note->visible(), qPrintable(where + (note ? note->text() : QString())));
                        continue;
                    }
                    empty << plot->objectName();
                    QVERIFY2(shown.isEmpty(), qPrintable(where + shown.join(u' ')));
                    QVERIFY2(note && note->visible() && !note->text().isEmpty(),
                             qPrintable(where + QStringLiteral("no note")));
                    // Every line of the note inside the chart's plotting area.
                    const QRect area = plot->axisRect()->rect();
                    const QFontMetrics metrics(note->font());
                    for (const QString& line : note->text().split(u'\n'))
                        QVERIFY2(metrics.horizontalAdvance(line) <= area.width(),
                                 qPrintable(where + QStringLiteral("'%1' in %2 px").arg(line).arg(area.width())));
                    const QRectF box(note->topLeft->pixelPosition(), note->bottomRight->pixelPosition());
                    QVERIFY2(area.contains(box.toAlignedRect()),
                             qPrintable(where + QStringLiteral("note outside the plotting area")));
                }
                // The charts that are empty here, as the figures say they must be.
                if (path == "user")
                    QVERIFY2(empty.contains(view->plot(ui::ChartsView::Timeline)->objectName()) &&
                                 empty.contains(view->plot(ui::ChartsView::IdleAge)->objectName()),
                             qPrintable(empty.join(u'|')));
                if (path.isEmpty())
                    QCOMPARE(empty.size(), int(ui::ChartsView::ChartCount));
                if (const QString dir = qEnvironmentVariable("KEYLENS_GRAB_DIR"); !dir.isEmpty())
                    m_window->grab().save(QStringLiteral("%1/charts-empty-%2-%3.png")
                                              .arg(dir, QString::fromUtf8(path.isEmpty() ? "none" : path.left(8)))
                                              .arg(size.width()));
            }
        }
        m_window->resize(1400, 900);
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
