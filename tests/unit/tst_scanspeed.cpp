// The choice of scan speed and the gentle scan's latency guard, without a server.
#include "scan/LatencyGuard.h"
#include "scan/ScanSpeed.h"

#include <QTest>

using namespace keylens;
using namespace std::chrono_literals;
using scan::LatencyGuard;

class TestScanSpeed : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultSpeedByWhereTheServerIs_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("unixSocket");
        QTest::addColumn<bool>("gentle");
        QTest::newRow("127.0.0.1") << QStringLiteral("127.0.0.1") << false << false;
        QTest::newRow("127.0.0.2") << QStringLiteral("127.0.0.2") << false << false;
        QTest::newRow("::1") << QStringLiteral("::1") << false << false;
        QTest::newRow("localhost") << QStringLiteral("LocalHost") << false << false;
        QTest::newRow("unix socket") << QString() << true << false;
        QTest::newRow("LAN address") << QStringLiteral("10.0.0.5") << false << true;
        QTest::newRow("managed service") << QStringLiteral("cache.example.com") << false << true;
        // A name that might resolve to loopback is not trusted to: it may be a tunnel to production.
        QTest::newRow("localhost.example") << QStringLiteral("localhost.example.com") << false << true;
        // Through an SSH tunnel, loopback is the SSH server's.
        QTest::newRow("127.0.0.1 via ssh") << QStringLiteral("ssh:127.0.0.1") << false << true;
    }
    void defaultSpeedByWhereTheServerIs()
    {
        QFETCH(QString, host);
        QFETCH(bool, unixSocket);
        QFETCH(bool, gentle);
        redis::ConnectionOptions options;
        options.host = host;
        if (host.startsWith(QStringLiteral("ssh:"))) {
            options.host = host.mid(4);
            options.ssh.host = QStringLiteral("bastion.example.com");
        }
        if (unixSocket) {
            options.transport = redis::ConnectionOptions::Transport::Unix;
            options.socketPath = QStringLiteral("/run/redis.sock");
        }
        QCOMPARE(scan::defaultSpeedFor(options) == scan::ScanSpeed::Gentle, gentle);
    }

    void speedNamesRoundTrip()
    {
        for (scan::ScanSpeed speed : {scan::ScanSpeed::Full, scan::ScanSpeed::Gentle})
            QCOMPARE(scan::parseSpeed(scan::speedName(speed)), std::optional(speed));
        QVERIFY(!scan::parseSpeed(QStringLiteral("fast")));
        QVERIFY(!scan::parseSpeed(QStringLiteral("Gentle")));
    }

    // Steady rounds: rest as long as the round, no back-off.
    void steadyRoundsRestAsLongAsTheyTook()
    {
        LatencyGuard guard;
        for (int i = 0; i < 50; ++i)
            QCOMPARE(guard.afterRound(300us, 96), LatencyGuard::Duration(300us));
        QVERIFY(!guard.backingOff());
    }

    // A server that slows (rounds 10x longer) doubles the back-off round after round up to its cap; when it recovers
    // the back-off halves away.
    void slowRoundsBackOffAndRecover()
    {
        LatencyGuard guard;
        for (int i = 0; i < 10; ++i)
            guard.afterRound(300us, 96);
        QCOMPARE(guard.afterRound(3000us, 96), 3000us + LatencyGuard::FirstBackoff);
        QCOMPARE(guard.afterRound(3000us, 96), 3000us + 2 * LatencyGuard::FirstBackoff);
        for (int i = 0; i < 7; ++i) // 2 4 8 … 256 ms, then the cap
            guard.afterRound(3000us, 96);
        QCOMPARE(guard.backoff(), LatencyGuard::MostBackoff);
        int rounds = 0;
        while (guard.backingOff() && rounds < 100) {
            guard.afterRound(300us, 96);
            ++rounds;
        }
        QVERIFY(!guard.backingOff());
        QVERIFY2(rounds <= 10, qPrintable(QString::number(rounds)));
    }

    // Short rounds are never slow, however many times the usual: a loopback server's jitter is not trouble.
    void shortRoundsAreNeverSlow()
    {
        LatencyGuard guard;
        guard.afterRound(20us, 96);
        guard.afterRound(1900us, 96);
        QVERIFY(!guard.backingOff());
    }

    // A server that is simply slower for good becomes the new normal: the back-off ends without a recovery.
    void aServerSlowerForGoodBecomesTheNormal()
    {
        LatencyGuard guard;
        for (int i = 0; i < 10; ++i)
            guard.afterRound(300us, 96);
        int rounds = 0;
        do {
            guard.afterRound(3000us, 96);
            ++rounds;
        } while (guard.backingOff() && rounds < 1000);
        QVERIFY2(rounds < 400, qPrintable(QString::number(rounds)));
    }
};

QTEST_GUILESS_MAIN(TestScanSpeed)
#include "tst_scanspeed.moc"
