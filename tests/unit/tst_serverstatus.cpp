// The server panel's words from INFO's text: fields and k=v lists parsed as the server writes them, a refused section
// said as such on every line it fills, the fragmentation ratio judged by the server's size, replicas and a master.
#include "models/ServerStatusText.h"
#include "redis/ServerStatus.h"

#include <QTest>

using namespace keylens;
using redis::ServerStatus;

namespace {

redis::InfoSection section(const char* text)
{
    redis::InfoSection parsed;
    parsed.available = true;
    parsed.fields = redis::parseInfoFields(text);
    return parsed;
}

QString valueOf(const std::vector<models::StatusGroup>& groups, const char* group, const char* label)
{
    for (const models::StatusGroup& shown : groups) {
        for (const models::StatusLine& line : shown.lines) {
            if (shown.title == QLatin1String(group) && line.label == QLatin1String(label))
                return line.value;
        }
    }
    return {};
}

} // namespace

class TestServerStatus : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesInfoText()
    {
        const auto fields = redis::parseInfoFields("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n\r\n"
                                                   "# Keyspace\r\ndb0:keys=3,expires=1,avg_ttl=0\r\nodd line\r\n");
        QCOMPARE(fields.size(), std::size_t(3));
        QCOMPARE(fields[0].first, QByteArray("redis_version"));
        QCOMPARE(fields[2].second, QByteArray("keys=3,expires=1,avg_ttl=0"));
        const auto list = redis::parseInfoList("ip=10.0.0.2,port=6380,state=online,offset=42,lag=1");
        QCOMPARE(list.size(), std::size_t(5));
        QCOMPARE(list[2], std::make_pair(QByteArray("state"), QByteArray("online")));
    }

    void describesWhatTheServerSays()
    {
        ServerStatus status;
        status.sections[ServerStatus::Server] =
            section("redis_version:7.2.4\r\nredis_mode:cluster\r\nuptime_in_seconds:90061\r\n");
        status.sections[ServerStatus::Memory] = section(
            "used_memory:104857600\r\nused_memory_peak:209715200\r\nmem_fragmentation_ratio:1.80\r\nmaxmemory:0\r\n"
            "maxmemory_policy:noeviction\r\n");
        status.sections[ServerStatus::Keyspace] =
            section("db0:keys=1200,expires=300,avg_ttl=5\r\ndb3:keys=7,expires=0\r\n");
        status.sections[ServerStatus::Stats] = section("keyspace_hits:75\r\nkeyspace_misses:25\r\nevicted_keys:4\r\n");
        status.sections[ServerStatus::Replication] = section(
            "role:master\r\nconnected_slaves:1\r\nslave0:ip=10.0.0.2,port=6380,state=online,offset=9,lag=0\r\n");
        status.sections[ServerStatus::Clients].problem = QStringLiteral("NOPERM this user has no permissions");
        models::ScannedTotals scanned{1200, 52428800, true};
        const auto groups = models::describeServerStatus(status, scanned);
        QCOMPARE(valueOf(groups, "Server", "Version"), QStringLiteral("7.2.4 · cluster"));
        QVERIFY(valueOf(groups, "Server", "Uptime").startsWith(QStringLiteral("1d")));
        QVERIFY(valueOf(groups, "Memory", "Fragmentation").contains(QStringLiteral("high")));
        QCOMPARE(valueOf(groups, "Memory", "Limit"), QStringLiteral("no limit (maxmemory 0)"));
        QCOMPARE(valueOf(groups, "Memory", "Scanned keys"),
                 QStringLiteral("50.0 MiB in 1,200 keys, 50.0% of used memory; 50.0 MiB is the server's own"));
        QCOMPARE(valueOf(groups, "Keyspace", "db0"), QStringLiteral("1,200 keys, 300 with a TTL"));
        QCOMPARE(valueOf(groups, "Keyspace", "db3"), QStringLiteral("7 keys, 0 with a TTL"));
        QCOMPARE(valueOf(groups, "Keyspace", "Hit rate"), QStringLiteral("75.0% (75 hits, 25 misses)"));
        QCOMPARE(valueOf(groups, "Activity", "Evicted keys"), QStringLiteral("4"));
        QCOMPARE(valueOf(groups, "Replication", "Replica 1"), QStringLiteral("10.0.0.2:6380, online, lag 0 s"));
        // A refused section: its lines say so, with the reason; a field the server did not give: not available.
        QCOMPARE(valueOf(groups, "Activity", "Clients"),
                 QStringLiteral("not available (NOPERM this user has no permissions)"));
        QCOMPARE(valueOf(groups, "Persistence", "RDB"), QStringLiteral("not available"));
        QCOMPARE(valueOf(groups, "Activity", "Expired keys"), QStringLiteral("not available"));
    }

    void smallServersAreNotCalledFragmented()
    {
        ServerStatus status;
        status.sections[ServerStatus::Memory] = section("used_memory:1200000\r\nmem_fragmentation_ratio:6.00\r\n");
        const auto groups = models::describeServerStatus(status, {});
        QVERIFY(!valueOf(groups, "Memory", "Fragmentation").contains(QStringLiteral("high")));
        QCOMPARE(valueOf(groups, "Memory", "Scanned keys"), QStringLiteral("nothing scanned yet"));
    }

    void replicaNamesItsMaster()
    {
        ServerStatus status;
        status.sections[ServerStatus::Replication] =
            section("role:slave\r\nmaster_host:10.0.0.1\r\nmaster_port:6379\r\nmaster_link_status:down\r\n"
                    "master_last_io_seconds_ago:-1\r\n");
        const auto groups = models::describeServerStatus(status, {});
        QCOMPARE(valueOf(groups, "Replication", "Role"), QStringLiteral("replica"));
        QCOMPARE(valueOf(groups, "Replication", "Master"), QStringLiteral("10.0.0.1:6379, link down"));
    }
};

QTEST_GUILESS_MAIN(TestServerStatus)
#include "tst_serverstatus.moc"
