// The real main window, offscreen, over a scan of 1,000,000 keys of the demo mix: how long the GUI thread
// ever stops answering (a 5 ms timer probe; a stall is a tick that came late), the 99th percentile of
// those delays, peak RSS, and the GUI's scan time against `keylens-cli scan` on the same server.
// Then a node with 1,000,000 children: expanding it, sorting it by every column, and scrolling it.
// Floors from issue 3: longest stall <= 50 ms, p99 <= 16 ms, GUI scan <= 1.3x keylens-cli, sort < 300 ms.
// The stall floors hold with the pattern view showing too (issue 9): the same scans are run again there.
// And a live tree (issue 43): the window follows the server while redis-benchmark writes 100,000 times a second and
// more, within the same stall floors; afterwards the tree's key count equals DBSIZE.
//
//   build/bin/bench_gui [--keys N] [--wide N] [--runs N] [--skip-cli] [--live-seconds N] [--only-live]
#include "BenchOptions.h"
#include "DemoServer.h"
#include "IdleProbe.h"
#include "ProcessStats.h"
#include "ServerLoad.h"
#include "demo/DemoKeyspace.h"
#include "demo/RedisServerProcess.h"
#include "models/KeyTreeModel.h"
#include "models/LiveSession.h"
#include "models/PatternTreeModel.h"
#include "models/ScanSession.h"
#include "redis/Connection.h"
#include "ui/BrowserPane.h"
#include "ui/MainWindow.h"
#include "ui/PatternView.h"
#include "ui/TreemapPane.h"
#include "ui/TreemapView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <vector>

using namespace keylens;

namespace {

// One clock for the events and the probe, so the longest stall can be traced to the events inside it.
QElapsedTimer& benchClock()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer started;
        started.start();
        return started;
    }();
    return clock;
}

double benchNowMs()
{
    return double(benchClock().nsecsElapsed()) / 1e6;
}

// Times every event the GUI thread handles, so a stall can be traced to what caused it.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    struct Slow
    {
        double ms;
        QString what;
        double startMs = 0; // on benchClock()
    };
    std::vector<Slow> slow;
    std::vector<Slow> timeline; // every event over 2 ms, in order

    // Every event, however short, in a ring of the last few thousand: a stall may be made of many small ones.
    struct Recent
    {
        double startMs;
        double ms;
        const char* className;
        int type;
    };
    std::array<Recent, 16384> recent{};
    std::size_t recentCount = 0;

    // The events that ran between two ticks: how many, how long in all, and the receivers that took the most.
    QString eventsBetween(double fromMs, double toMs) const
    {
        std::map<QString, std::pair<int, double>> byReceiver;
        int count = 0;
        double total = 0;
        for (std::size_t i = 0; i < std::min(recentCount, recent.size()); ++i) {
            const Recent& event = recent[i];
            if (event.startMs + event.ms <= fromMs || event.startMs >= toMs)
                continue;
            ++count;
            total += event.ms;
            auto& entry =
                byReceiver[QStringLiteral("%1 event %2").arg(QString::fromLatin1(event.className)).arg(event.type)];
            ++entry.first;
            entry.second += event.ms;
        }
        std::vector<std::pair<double, QString>> biggest;
        for (const auto& [what, figures] : byReceiver)
            biggest.emplace_back(figures.second, QStringLiteral("%1 x %2").arg(figures.first).arg(what));
        std::sort(biggest.begin(), biggest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        QString text = QStringLiteral("%1 events, %2 ms in all").arg(count).arg(total, 0, 'f', 1);
        for (std::size_t i = 0; i < biggest.size() && i < 3; ++i)
            text += QStringLiteral("; %1 ms in %2").arg(biggest[i].first, 0, 'f', 1).arg(biggest[i].second);
        return text;
    }

    bool notify(QObject* receiver, QEvent* event) override
    {
        // Named before delivery: a single-shot timer deletes its receiver while handling the event.
        const char* className = receiver->metaObject()->className();
        const QString objectName = receiver->objectName();
        const int type = int(event->type());
        const double startMs = benchNowMs();
        const bool result = QApplication::notify(receiver, event);
        const double ms = benchNowMs() - startMs;
        if (QThread::currentThread() == thread())
            recent[recentCount++ % recent.size()] = {startMs, ms, className, type};
        // The GUI thread's only: the workers' events (a value read, a chart walk) stall nobody.
        if (ms > 2 && QThread::currentThread() == thread()) {
            const Slow entry{
                ms, QStringLiteral("%1 (%2) event %3").arg(QString::fromLatin1(className), objectName).arg(type),
                startMs};
            timeline.push_back(entry);
            if (ms > 10)
                slow.push_back(entry);
        }
        return result;
    }
};

// Ticks every 5 ms and records how late each tick came: the time the event loop could not answer, and where the
// GUI thread's time went meanwhile (see ThreadClock).
class StallProbe
{
public:
    static constexpr int IntervalMs = 5;

    struct Tick
    {
        double delayMs;
        double fromMs; // the tick before, on benchClock()
        double toMs;
        double runningMs; // of the GUI thread, between the two ticks
        double waitingMs;
        long pagesTouched;
        long majorFaults;
        QString events;       // for a late tick: what ran in between (TimedApplication::eventsBetween)
        MachineClock machine; // for a late tick: what the machine did in between, all cores
    };
    static constexpr double SummarisedDelayMs = 20;

    StallProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(IntervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const double now = benchNowMs();
            const ThreadClock clock = threadClock();
            const double delay = std::max(0.0, now - m_lastMs - IntervalMs);
            const MachineClock machine = machineClock();
            Tick tick{delay,
                      m_lastMs,
                      now,
                      clock.runningMs - m_lastClock.runningMs,
                      clock.waitingMs - m_lastClock.waitingMs,
                      clock.minorFaults - m_lastClock.minorFaults,
                      clock.majorFaults - m_lastClock.majorFaults,
                      {},
                      {}};
            if (delay > SummarisedDelayMs) { // read now: the ring moves on
                tick.events =
                    static_cast<TimedApplication*>(QCoreApplication::instance())->eventsBetween(m_lastMs, now);
                tick.machine = {machine.userMs - m_lastMachine.userMs, machine.kernelMs - m_lastMachine.kernelMs,
                                machine.idleMs - m_lastMachine.idleMs, machine.stolenMs - m_lastMachine.stolenMs};
            }
            m_ticks.push_back(std::move(tick));
            m_lastMs = now;
            m_lastClock = clock;
            m_lastMachine = machine;
        });
    }
    void start()
    {
        m_idle.start();
        m_ticks.clear();
        m_lastMs = benchNowMs();
        m_lastClock = threadClock();
        m_lastMachine = machineClock();
        m_timer.start();
    }
    void stop()
    {
        m_timer.stop();
        m_idle.stop();
    }
    const IdleProbe& idle() const { return m_idle; }
    // The `count` longest, longest first.
    std::vector<Tick> longestTicks(std::size_t count) const
    {
        std::vector<Tick> ticks = m_ticks;
        const auto longer = [](const Tick& a, const Tick& b) { return a.delayMs > b.delayMs; };
        count = std::min(count, ticks.size());
        std::partial_sort(ticks.begin(), ticks.begin() + std::ptrdiff_t(count), ticks.end(), longer);
        ticks.resize(count);
        return ticks;
    }
    double longest() const
    {
        const std::vector<Tick> ticks = longestTicks(1);
        return ticks.empty() ? 0 : ticks.front().delayMs;
    }
    double percentile(double p) const
    {
        if (m_ticks.empty())
            return 0;
        std::vector<double> sorted;
        sorted.reserve(m_ticks.size());
        for (const Tick& tick : m_ticks)
            sorted.push_back(tick.delayMs);
        std::sort(sorted.begin(), sorted.end());
        return sorted[std::min(sorted.size() - 1, std::size_t(p * double(sorted.size())))];
    }
    std::size_t samples() const { return m_ticks.size(); }

private:
    QTimer m_timer;
    double m_lastMs = 0;
    ThreadClock m_lastClock;
    MachineClock m_lastMachine;
    std::vector<Tick> m_ticks;
    IdleProbe m_idle{benchClock()}; // the machine's share of the stalls
};

// The scan's seconds; in the pattern view, also how long after the scan the exact pattern tree (built on
// a worker thread) replaced the live one, with the probe still running.
double scanInWindow(ui::MainWindow& window, const redis::ConnectionOptions& options, StallProbe& probe,
                    double* exactTreeSeconds = nullptr)
{
    ui::MainWindow::Target target;
    target.options = options;
    QEventLoop loop;
    QObject::connect(&window, &ui::MainWindow::scanFinished, &loop, &QEventLoop::quit);
    // Like a user: a second in, open the biggest namespace (or pattern) and keep it open while rows
    // stream in.
    QTimer::singleShot(1000, &window, [&window] {
        QTreeView* view = window.browser()->showsPatterns() ? static_cast<QTreeView*>(window.browser()->patternView())
                                                            : window.browser()->tree();
        if (view->model()->rowCount() > 0)
            view->expand(view->model()->index(0, 0));
    });
    // The slow events of this scan only (not those of the browsing and switching in between).
    auto* app = static_cast<TimedApplication*>(QCoreApplication::instance());
    app->slow.clear();
    app->timeline.clear();
    QElapsedTimer clock;
    probe.start();
    clock.start();
    const long faults = threadMinorFaults();
    window.connectTo(target);
    const double connectMs = double(clock.nsecsElapsed()) / 1e6;
    if (connectMs > 20)
        std::printf("  connectTo took %.1f ms (the previous scan's store and models let go)\n", connectMs);
    loop.exec();
    const double seconds = double(clock.nsecsElapsed()) / 1e9;
    // Machine-independent where stalls are not: each page cost 2 us here where the host backed the memory already,
    // 15-45 us where it did not.
    const long touched = threadMinorFaults() - faults;
    std::printf("  pages first touched by the GUI thread during the scan: %ld (%.0f MiB)\n", touched,
                double(touched) / 256.0);
    if (exactTreeSeconds) {
        models::PatternTreeModel* patterns = window.session()->patternModel();
        if (!patterns->isExact()) {
            QEventLoop exact;
            QObject::connect(patterns, &models::PatternTreeModel::exactTreeReady, &exact, &QEventLoop::quit);
            exact.exec();
        }
        *exactTreeSeconds = double(clock.nsecsElapsed()) / 1e9 - seconds;
    }
    probe.stop();
    return seconds;
}

void printStalls(const StallProbe& probe)
{
    auto* app = static_cast<TimedApplication*>(QCoreApplication::instance());
    std::sort(app->slow.begin(), app->slow.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
    for (std::size_t i = 0; i < app->slow.size() && i < 8; ++i)
        std::printf("  slow event: %5.1f ms in %s\n", app->slow[i].ms, qPrintable(app->slow[i].what));
    app->slow.clear();
    // The longest stalls: where the GUI thread's time went, and what it did between the two ticks around each.
    for (const StallProbe::Tick& tick : probe.longestTicks(3)) {
        std::printf("  stall of %.1f ms: the GUI thread ran %.1f ms, waited for a core %.1f ms, touched %ld new pages, "
                    "%ld major faults;",
                    tick.delayMs, tick.runningMs, tick.waitingMs, tick.pagesTouched, tick.majorFaults);
        bool any = false;
        for (const auto& event : app->timeline) {
            if (event.startMs + event.ms > tick.fromMs && event.startMs < tick.toMs) {
                std::printf(" %.1f ms %s;", event.ms, qPrintable(event.what));
                any = true;
            }
        }
        std::printf("%s\n", any ? "" : " no event of 2 ms or more");
        if (tick.delayMs > StallProbe::SummarisedDelayMs) { // read only for those (see StallProbe)
            std::printf("    all events in it: %s\n", qPrintable(tick.events));
            std::printf("    the machine meanwhile, all cores, to 10 ms: %.0f ms user, %.0f ms kernel, %.0f ms idle, "
                        "%.0f ms stolen by the host\n",
                        tick.machine.userMs, tick.machine.kernelMs, tick.machine.idleMs, tick.machine.stolenMs);
        }
        std::printf("    a thread of ours that only sleeps %d ms at a time woke up %.1f ms late in it\n",
                    IdleProbe::IntervalMs, probe.idle().lateBetween(tick.fromMs, tick.toMs));
    }
    app->timeline.clear();
    std::printf("  GUI-thread stalls: longest %.1f ms (floor 50), p99 %.1f ms (floor 16), p50 %.2f ms, %zu probes\n",
                probe.longest(), probe.percentile(0.99), probe.percentile(0.50), probe.samples());
    std::printf("  the machine's share: a thread that only sleeps woke up at most %.1f ms late\n",
                probe.idle().longest());
}

long long setCalls(redis::Connection& connection)
{
    const redis::Result<redis::Reply> info = connection.command({"INFO", "commandstats"});
    if (!info)
        return -1;
    const QByteArray text = info->bytes().toByteArray();
    const qsizetype at = text.indexOf("cmdstat_set:calls=");
    return at < 0 ? 0 : text.mid(at + 18, text.indexOf(',', at) - at - 18).toLongLong();
}

// The window follows the server live while redis-benchmark writes as fast as it can (SET to 100,000 keys, pipelined):
// the GUI thread's stalls meanwhile, the writes per second the server took, and whether the tree agrees with DBSIZE
// once the writer stops.
void liveUnderWrites(QSettings& settings, const demo::RedisServerProcess& server, int seconds)
{
    auto admin = redis::Connection::open(server.connectionOptions());
    if (!admin) {
        std::printf("live: cannot connect\n");
        return;
    }
    (*admin)->command({"CONFIG", "SET", "notify-keyspace-events", "KEA"});
    settings.setValue(QStringLiteral("scan/followLive"), true);
    ui::MainWindow window(&settings);
    window.resize(1280, 800);
    window.show();
    StallProbe probe;
    const double scanSeconds = scanInWindow(window, server.connectionOptions(), probe);
    models::LiveSession* live = window.live();
    while (live->state() == models::LiveSession::State::Starting)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    std::printf("\nLive tree: scanned in %.2f s, then %s\n", scanSeconds,
                live->state() == models::LiveSession::State::Following ? "following" : "NOT following");
    // Sorted by writes, as a user watching which namespaces are written would.
    window.browser()->tree()->sortByColumn(models::KeyTreeModel::WritesColumn, Qt::DescendingOrder);

    QProcess writer;
    writer.setProgram(QStringLiteral("redis-benchmark"));
    writer.setArguments({QStringLiteral("-p"), QString::number(server.port()), QStringLiteral("-t"),
                         QStringLiteral("set"), QStringLiteral("-n"), QStringLiteral("100000000"), QStringLiteral("-r"),
                         QStringLiteral("100000"), QStringLiteral("-P"), QStringLiteral("16"), QStringLiteral("-c"),
                         QStringLiteral("4"), QStringLiteral("-q")});
    const long long before = setCalls(**admin);
    auto* app = static_cast<TimedApplication*>(QCoreApplication::instance());
    app->slow.clear();
    app->timeline.clear();
    probe.start();
    QElapsedTimer clock;
    clock.start();
    writer.start();
    if (!writer.waitForStarted()) {
        std::printf("  redis-benchmark did not start\n");
        return;
    }
    while (clock.elapsed() < qint64(seconds) * 1000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    writer.kill();
    writer.waitForFinished();
    const double elapsed = double(clock.nsecsElapsed()) / 1e9;
    const long long writes = setCalls(**admin) - before;
    // Until the last keys are in and a quiet DBSIZE was compared.
    QElapsedTimer catchUp;
    catchUp.start();
    while (catchUp.elapsed() < 5000 || (live->keysWaiting() > 0 && catchUp.elapsed() < 60000))
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    probe.stop();
    const redis::Result<redis::Reply> dbsize = (*admin)->command({"DBSIZE"});
    std::printf("  %.0f writes/s to the server for %.1f s (floor 100,000); the tree showed %.0f writes/s at the end\n",
                double(writes) / elapsed, elapsed, live->totalWritesPerSecond());
    std::printf("  afterwards: state %s%s, the tree %llu keys, DBSIZE %lld\n",
                live->state() == models::LiveSession::State::Following ? "following" : "behind: ",
                qPrintable(live->state() == models::LiveSession::State::Following ? QString() : live->why()),
                static_cast<unsigned long long>(window.session()->keyspace().keyCount()),
                dbsize && dbsize->isInteger() ? dbsize->integer() : -1LL);
    printStalls(probe);
    settings.setValue(QStringLiteral("scan/followLive"), false);
    (*admin)->command({"CONFIG", "SET", "notify-keyspace-events", ""});
}

template<typename F> double millis(F&& work)
{
    QElapsedTimer clock;
    clock.start();
    work();
    return double(clock.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    const std::uint64_t keys = numberOption(arguments, "--keys", 1'000'000);
    const std::uint64_t wide = numberOption(arguments, "--wide", 1'000'000);
    const int runs = int(std::max<std::uint64_t>(1, numberOption(arguments, "--runs", 2)));
    const int liveSeconds = int(numberOption(arguments, "--live-seconds", 20));
    const bool onlyLive = arguments.contains(QStringLiteral("--only-live"));

    demo::RedisServerProcess server;
    demo::RedisServerProcess::Options serverOptions;
    serverOptions.extraArguments = {QStringLiteral("--enable-debug-command"), QStringLiteral("yes")};
    if (!startDemoServer(server, keys, serverOptions))
        return 1;
    std::printf("Keyspace: %llu keys of the demo mix; redis-server on loopback\n",
                static_cast<unsigned long long>(keys));

    QTemporaryDir settingsDir;
    QSettings settings(settingsDir.filePath(QStringLiteral("bench.ini")), QSettings::IniFormat);
    if (onlyLive) {
        liveUnderWrites(settings, server, liveSeconds);
        return 0;
    }
    double cliBest = 1e9;
    // --skip-cli: the window's figures alone (the keylens-cli comparison takes a minute per run at 10,000,000 keys).
    const int cliRuns = arguments.contains(QStringLiteral("--skip-cli")) ? 0 : runs;
    for (int run = 0; run < cliRuns; ++run) {
        const ProcessRun cli =
            runMeasured(QStringLiteral(KEYLENS_CLI_PATH),
                        {QStringLiteral("scan"), server.uri(), QStringLiteral("--format"), QStringLiteral("json")});
        std::printf("  keylens-cli scan run %d: %.2f s (exit %d)\n", run + 1, cli.seconds, cli.exitCode);
        cliBest = std::min(cliBest, cli.seconds);
    }

    const long rssBefore = selfRssKb();
    {
        ui::MainWindow window(&settings);
        window.resize(1280, 800);
        window.show();
        StallProbe probe;
        double guiBest = 1e9;
        for (int run = 0; run < runs; ++run) {
            ServerLoad load(server.processId(), server.connectionOptions());
            load.start();
            const double seconds = scanInWindow(window, server.connectionOptions(), probe);
            std::printf("\nGUI scan run %d: %.2f s, %.0f keys/s\n", run + 1, seconds, double(keys) / seconds);
            load.finish(seconds, keys);
            std::printf("  %s\n", load.summary(double(keys) / seconds).constData());
            printStalls(probe);
            // The peak of one scan, before the browsing and the pattern view add theirs.
            std::printf("  peak RSS so far %.1f MiB: %.0f bytes per key\n", double(selfPeakRssKb()) / 1024.0,
                        double(selfPeakRssKb() - rssBefore) * 1024.0 / double(keys));
            guiBest = std::min(guiBest, seconds);
        }
        std::printf("\nGUI scan best %.2f s vs keylens-cli best %.2f s: %.2fx (floor 1.3x)\n", guiBest, cliBest,
                    guiBest / cliBest);
        // Browsing the whole store: the node with the most children expanded and sorted by memory, the tree
        // filtered by a glob, and the pattern view switched to (issue 13's floors: sort and filter within 1 s).
        {
            const keyspace::Keyspace& store = window.session()->keyspace();
            keyspace::NodeId biggest = keyspace::Keyspace::root();
            for (const keyspace::NodeId top : store.children(keyspace::Keyspace::root())) {
                if (store.stats(top).childCount > store.stats(biggest).childCount ||
                    biggest == keyspace::Keyspace::root())
                    biggest = top;
                store.forEachChild(top, [&](keyspace::NodeId child) {
                    if (store.stats(child).childCount > store.stats(biggest).childCount)
                        biggest = child;
                });
            }
            models::KeyTreeModel* model = window.session()->model();
            QTreeView* tree = window.browser()->tree();
            const QModelIndex node = model->indexOfNode(biggest);
            const double expandMs = millis([&] {
                tree->expand(node);
                model->rowCount(node);
            });
            const double sortMs = millis([&] {
                tree->sortByColumn(models::KeyTreeModel::MemoryColumn, Qt::DescendingOrder);
                tree->repaint();
            });
            std::printf(
                "\nBrowsing %llu keys: the biggest node (%s, %u children) expanded in %.0f ms, sorted by memory "
                "in %.0f ms (floor 1000)\n",
                static_cast<unsigned long long>(keys), store.path(biggest).constData(), store.stats(biggest).childCount,
                expandMs, sortMs);
            const double filterMs = millis([&] {
                window.browser()->setFilterText(QStringLiteral("*:profile"));
                QCoreApplication::processEvents();
                tree->repaint();
            });
            std::printf("  filtered by the glob *:profile in %.0f ms (floor 1000): %d top-level rows\n", filterMs,
                        model->rowCount());
            window.browser()->setFilterText(QString());
            QCoreApplication::processEvents();
            QElapsedTimer switching;
            switching.start();
            window.browser()->showPatterns(true);
            const double shownMs = double(switching.nsecsElapsed()) / 1e6;
            // The live tree folds in slices and the exact one is built on a worker: the GUI thread's stalls
            // meanwhile are the switch's cost, the time until the exact tree its wait.
            StallProbe switchProbe;
            switchProbe.start();
            while (!window.session()->patternModel()->isExact())
                QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            std::printf("  switched to the pattern view in %.0f ms, its exact pattern tree ready %.0f ms later (%zu "
                        "patterns); meanwhile the GUI thread's longest stall %.1f ms, p99 %.1f ms\n",
                        shownMs, double(switching.nsecsElapsed()) / 1e6 - shownMs,
                        window.session()->patternModel()->tree()->size(), switchProbe.longest(),
                        switchProbe.percentile(0.99));
            switchProbe.stop();
            window.browser()->showPatterns(false);
        }
        // The same scans with the pattern view showing: it folds as the rows arrive.
        window.browser()->showPatterns(true);
        for (int run = 0; run < runs; ++run) {
            double exactTree = 0;
            ServerLoad load(server.processId(), server.connectionOptions());
            load.start();
            const double seconds = scanInWindow(window, server.connectionOptions(), probe, &exactTree);
            load.finish(seconds, keys);
            std::printf("\nPattern view, scan run %d: %.2f s (%.2fx keylens-cli), exact pattern tree %.2f s later, "
                        "%zu patterns\n",
                        run + 1, seconds, seconds / cliBest, exactTree,
                        window.session()->patternModel()->tree()->size());
            std::printf("  %s\n", load.summary(double(keys) / seconds).constData());
            printStalls(probe);
        }
        window.browser()->showPatterns(false);
        // The treemap of the whole keyspace, laid out and painted once.
        window.browser()->showTreemap();
        ui::TreemapView* map = window.browser()->treemap()->view();
        const double paintMs = millis([&] { map->repaint(); });
        // The rest of the layout runs in slices, as in the window. (Its figures are read after the
        // layout: printf's arguments are evaluated in any order, and tiles() finishes it in one go.)
        while (map->isLayingOut())
            QCoreApplication::processEvents();
        const std::size_t tileCount = map->tiles().size();
        std::printf("\nTreemap of %llu keys: %zu tiles, %.1f ms of layout, longest slice %.1f ms (a frame: 16); "
                    "the first paint took %.1f ms\n",
                    static_cast<unsigned long long>(keys), tileCount, map->lastLayoutMs(), map->longestSliceMs(),
                    paintMs);
        std::printf("Peak RSS %.1f MiB (%.1f MiB before the window): %.0f bytes per key\n",
                    double(selfPeakRssKb()) / 1024.0, double(rssBefore) / 1024.0,
                    double(selfPeakRssKb() - rssBefore) * 1024.0 / double(keys));
    }
    if (liveSeconds > 0)
        liveUnderWrites(settings, server, liveSeconds);
    if (wide == 0)
        return 0;

    // One parent with `wide` children: DEBUG POPULATE writes flat:0 .. flat:N-1.
    {
        auto connection = redis::Connection::open(server.connectionOptions());
        (*connection)->command({"FLUSHALL"});
        (*connection)->command({"DEBUG", "POPULATE", QByteArray::number(wide), "flat"});
    }
    ui::MainWindow window(&settings);
    window.resize(1280, 800);
    window.show();
    StallProbe probe;
    const double seconds = scanInWindow(window, server.connectionOptions(), probe);
    std::printf("\nWide node: %llu children of flat, scanned in %.2f s\n", static_cast<unsigned long long>(wide),
                seconds);
    printStalls(probe);
    models::KeyTreeModel* model = window.browser()->treeModel();
    QTreeView* tree = window.browser()->tree();
    const QModelIndex flat = model->index(0, 0);
    tree->expand(flat); // the window opened it at the end of the scan already (the biggest namespace)
    std::printf("  flat is open with %d rows\n", model->rowCount(flat));
    {
        window.browser()->showTreemap();
        ui::TreemapView* map = window.browser()->treemap()->view();
        map->setShownNode(model->nodeOf(flat));
        const double paintMs = millis([&] { map->repaint(); });
        // The rest of the layout runs in slices, as in the window.
        while (map->isLayingOut())
            QCoreApplication::processEvents();
        std::printf("  treemap of flat: %zu tiles, %.1f ms of layout, longest slice %.1f ms (a frame: 16); first "
                    "paint %.1f ms\n",
                    map->tiles().size(), map->lastLayoutMs(), map->longestSliceMs(), paintMs);
    }
    for (int column = 0; column < models::KeyTreeModel::ColumnCount; ++column) {
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const double sortMs = millis([&] { tree->sortByColumn(column, order); });
            const double paintMs = millis([&] { tree->viewport()->repaint(); });
            std::printf("  sort by %-12s %-4s %6.0f ms (floor 300): the model %4.0f ms, the view's relayout and paint "
                        "%4.0f ms\n",
                        qPrintable(model->headerData(column, Qt::Horizontal).toString()),
                        order == Qt::AscendingOrder ? "asc" : "desc", sortMs + paintMs, sortMs, paintMs);
        }
    }
    {
        // The road not taken: a QSortFilterProxyModel over the same model, sorting the same million rows
        // through SortRole (ARCHITECTURE.md's habit; the model sorts itself because of this figure).
        QSortFilterProxyModel proxy;
        proxy.setSortRole(models::KeyTreeModel::SortRole);
        proxy.setSourceModel(model);
        const QModelIndex proxyFlat = proxy.index(0, 0);
        const double mapMs = millis([&] { proxy.rowCount(proxyFlat); });
        const double sortMs = millis([&] { proxy.sort(models::KeyTreeModel::MemoryColumn, Qt::DescendingOrder); });
        std::printf(
            "  for comparison, QSortFilterProxyModel: mapping the 1M rows %.0f ms, sorting them by memory %.0f ms\n",
            mapMs, sortMs);
    }
    QScrollBar* bar = tree->verticalScrollBar();
    double worst = 0;
    double total = 0;
    const int steps = 200;
    for (int step = 0; step < steps; ++step) {
        const int value = int(double(bar->maximum()) * double((step * 7919) % steps) / double(steps));
        const double ms = millis([&] {
            bar->setValue(value);
            tree->viewport()->repaint();
        });
        worst = std::max(worst, ms);
        total += ms;
    }
    std::printf("  scroll to %d random places: %.2f ms per repaint on average, %.1f ms at worst\n", steps,
                total / steps, worst);
    return 0;
}
