// Cancel is prompt whatever the timeout: against a redis-server stopped with SIGSTOP (it accepts connections, the
// kernel does, and answers nothing), a blocked read ends promptly (PromptMs) when the scan is cancelled, the value
// reader is closed, or a newer request supersedes an older one; a superseded job never delivers.
#include "PlainClient.h"
#include "TestServer.h"
#include "base/JobRunner.h"
#include "models/ValueInspector.h"
#include "redis/Connection.h"
#include "scan/Scanner.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace keylens;

namespace {
// Cancel takes well under 200 ms as a rule; the bound is five times that, so that a loaded machine's scheduling cannot
// fail it, and still thirty times shorter than the timeout a cancel that did not work would wait for.
constexpr int PromptMs = 1000;
constexpr int LongTimeoutMs = 30000;
} // namespace

class TestCancel : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;

    redis::ConnectionOptions patient() const
    {
        redis::ConnectionOptions options = m_server.connectionOptions();
        options.commandTimeoutMs = LongTimeoutMs;
        return options;
    }
    void stopServer() { QCOMPARE(::kill(pid_t(m_server.processId()), SIGSTOP), 0); }
    void continueServer() { QCOMPARE(::kill(pid_t(m_server.processId()), SIGCONT), 0); }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        QCOMPARE(test::fillStringKeys(m_server.port(), 5000), std::size_t(0));
    }
    void cleanup() { ::kill(pid_t(m_server.processId()), SIGCONT); }

    // A connection's blocked read, cancelled from another thread.
    void aBlockedReadEndsWhenCancelled()
    {
        std::atomic<bool> cancel{false};
        auto opened = redis::Connection::open(patient(), &cancel);
        QVERIFY(opened);
        stopServer();
        QElapsedTimer clock;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            clock.start();
            cancel = true;
        });
        redis::Result<redis::Reply> reply = (*opened)->command({"PING"});
        const qint64 took = clock.elapsed();
        canceller.join();
        QVERIFY(!reply);
        QCOMPARE(reply.error().kind, redis::ErrorKind::Cancelled);
        QVERIFY((*opened)->isBroken());
        QVERIFY2(took < PromptMs, qPrintable(QString::number(took)));
    }

    // Connecting where nothing answers the handshake: a listening socket whose accept queue is full (the kernel drops
    // our SYN, as a firewall would), and a port that accepts but never speaks TLS. Both end promptly after a cancel,
    // not after the connect timeout.
    void aHangingConnectEndsWhenCancelled_data()
    {
        QTest::addColumn<bool>("tls");
        QTest::newRow("TCP connect") << false;
        QTest::newRow("TLS handshake") << true;
    }
    void aHangingConnectEndsWhenCancelled()
    {
        QFETCH(bool, tls);
        const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(listener >= 0);
        auto closeAll = qScopeGuard([&] { ::close(listener); });
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        QCOMPARE(::listen(listener, 0), 0);
        socklen_t length = sizeof address;
        QCOMPARE(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
        // Fill the accept queue (nobody accepts), so the next connect hangs; with TLS, one connection is accepted
        // by the kernel and waits for a handshake that never comes.
        std::vector<int> fillers;
        for (int i = 0; i < (tls ? 0 : 4); ++i) {
            fillers.push_back(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
            ::connect(fillers.back(), reinterpret_cast<sockaddr*>(&address), sizeof address);
            QTest::qWait(20);
        }
        auto closeFillers = qScopeGuard([&] {
            for (int fd : fillers)
                ::close(fd);
        });
        redis::ConnectionOptions options;
        options.port = ntohs(address.sin_port);
        options.connectTimeoutMs = LongTimeoutMs;
        options.tls.enabled = tls;
        options.tls.insecure = true;
        std::atomic<bool> cancel{false};
        QElapsedTimer clock;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            clock.start();
            cancel = true;
        });
        auto opened = redis::Connection::open(options, &cancel);
        const qint64 took = clock.elapsed();
        canceller.join();
        QVERIFY(!opened);
        QVERIFY2(opened.error().kind == redis::ErrorKind::Cancelled, qPrintable(opened.error().message));
        QVERIFY2(took < PromptMs, qPrintable(QString::number(took)));
    }

    // Cancel a scan whose server stopped answering, then destroy the scanner: both promptly.
    void aScanOfAStoppedServerCancels()
    {
        auto scanner = std::make_unique<scan::Scanner>();
        QSignalSpy finished(scanner.get(), &scan::Scanner::finished);
        QSignalSpy progress(scanner.get(), &scan::Scanner::progressChanged);
        scan::ScanOptions options;
        options.connection = patient();
        options.maxKeysPerSecond = 2000; // slow enough to still run when the server stops
        scanner->start(options);
        QVERIFY(progress.wait(5000));
        stopServer();
        QTest::qWait(300); // the scan is blocked in a read now
        QElapsedTimer clock;
        clock.start();
        scanner->cancel();
        QVERIFY(finished.wait(PromptMs * 5));
        const qint64 toFinished = clock.elapsed();
        scanner.reset(); // joins the worker
        const qint64 toJoined = clock.elapsed();
        const auto summary = finished.first().first().value<scan::ScanSummary>();
        QVERIFY(summary.cancelled);
        QVERIFY2(!summary.error, summary.error ? qPrintable(summary.error->message) : "");
        QVERIFY2(toJoined < PromptMs,
                 qPrintable(QStringLiteral("finished after %1 ms, joined after %2 ms").arg(toFinished).arg(toJoined)));
    }

    // The value reader blocked on a stopped server: closing it (the window's destructor) is prompt.
    void closingTheValueReaderIsPrompt()
    {
        auto inspector = std::make_unique<models::ValueInspector>();
        inspector->setConnection(patient());
        QSignalSpy overview(inspector.get(), &models::ValueInspector::overviewReady);
        inspector->requestOverview("k:1");
        QVERIFY(overview.wait(5000)); // connected
        stopServer();
        inspector->requestOverview("k:2");
        QTemporaryDir exports;
        inspector->requestExport({"k:3"}, exports.filePath(QStringLiteral("values.jsonl"))); // the background link
        QTest::qWait(300);
        QElapsedTimer clock;
        clock.start();
        inspector.reset();
        QVERIFY2(clock.elapsed() < PromptMs, qPrintable(QString::number(clock.elapsed())));
    }

    // A newer request supersedes a blocked older one: the older is cancelled and never delivered, the newer is
    // answered once the server runs again (on a new connection: the cancelled one is broken).
    void aNewerRequestSupersedesABlockedOne()
    {
        models::ValueInspector inspector;
        inspector.setConnection(patient());
        QSignalSpy overview(&inspector, &models::ValueInspector::overviewReady);
        inspector.requestOverview("k:1");
        QVERIFY(overview.wait(5000));
        overview.clear();
        stopServer();
        const std::uint64_t older = inspector.requestOverview("k:2");
        QTest::qWait(300);
        const std::uint64_t newer = inspector.requestOverview("k:3");
        QTest::qWait(200);
        continueServer();
        QTRY_COMPARE_WITH_TIMEOUT(overview.size(), 1, 5000);
        QTest::qWait(200);
        QCOMPARE(overview.size(), 1);
        const auto delivered = overview.first().first().value<models::ValueInspector::Overview>();
        QVERIFY(delivered.request == newer && newer != older);
        QCOMPARE(delivered.key.key, QByteArray("k:3"));
        QVERIFY2(delivered.error.isEmpty(), qPrintable(delivered.error));
    }

    // The job helper on its own: a superseded job delivers nothing, another lane is untouched, cancelAll drops all.
    void jobsOfALaneSupersedeEachOther()
    {
        base::JobRunner runner(QStringLiteral("test jobs"));
        std::vector<int> delivered;
        std::atomic<bool> release{false};
        const auto job = [&](int value, bool wait) {
            return [&delivered, &release, value, wait](const base::JobContext& context) -> base::JobRunner::Delivery {
                while (wait && !release && !context.cancelled())
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                return [&delivered, value] { delivered.push_back(value); };
            };
        };
        runner.post(job(1, true), 1);
        runner.post(job(2, false), 2);
        runner.post(job(3, false), 1); // supersedes 1, which stops waiting
        QTRY_COMPARE(delivered.size(), std::size_t(2));
        QCOMPARE(delivered, (std::vector<int>{2, 3}));
        runner.post(job(4, true), 1);
        runner.cancelAll();
        QTest::qWait(100);
        QCOMPARE(delivered.size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestCancel)
#include "tst_cancel.moc"
