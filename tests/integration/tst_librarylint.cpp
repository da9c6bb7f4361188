// keylens-cli lint on keys that libraries write, in their documented layouts: queues (BullMQ, Sidekiq,
// Celery, RQ), sessions (connect-redis, Rails), caches (Django, Rails) and rate limiters (rack-attack,
// rate-limit-redis). Printed per library, as its users would read them. Two promises are checked: ids,
// uuids and tokens inside library keys are never judged as words, and one `namespaces.ignore` glob per
// library silences all of its keys.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <map>
#include <set>

using namespace keylens;

namespace {

struct Library
{
    const char* name;
    const char* ignore; // the profile glob that silences it
    std::vector<std::vector<QByteArray>> writes;
};

QByteArray uuid(int i)
{
    return QByteArray::number(0x1f2e3d4c + i, 16).rightJustified(8, '0') + "-9a7b-4c1d-8e2f-" +
           QByteArray::number(0x3a4b5c6d7e8fLL + i, 16).rightJustified(12, '0');
}

QByteArray sessionId(int i) // 32 characters of base64url, as uid-safe makes them
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    QByteArray id;
    std::uint64_t state = 0x9e3779b97f4a7c15ULL * std::uint64_t(i + 1);
    for (int c = 0; c < 32; ++c) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        id += alphabet[state % 64];
    }
    return id;
}

QByteArray djangoSessionKey(int i) // get_random_string(32) over [a-z0-9]
{
    QByteArray key;
    for (const char c : sessionId(2000 + i))
        key += "abcdefghijklmnopqrstuvwxyz0123456789"[std::uint8_t(c) % 36];
    return key;
}

std::vector<Library> libraries()
{
    std::vector<Library> out;
    const auto n = [](int i) { return QByteArray::number(i); };
    {
        Library bull{"BullMQ", "bull:*", {}};
        for (int i = 1; i <= 50; ++i) {
            bull.writes.push_back({"HSET", "bull:emails:" + n(i), "name", "send", "data", "{}"});
            bull.writes.push_back({"XADD", "bull:emails:" + n(i) + ":logs", "*", "msg", "started"});
        }
        bull.writes.push_back({"SET", "bull:emails:7:lock", "token", "PX", "30000"});
        for (const char* list : {"wait", "active", "paused"})
            bull.writes.push_back({"RPUSH", QByteArray("bull:emails:") + list, "1"});
        for (const char* zset : {"completed", "failed", "delayed", "prioritized", "repeat"})
            bull.writes.push_back({"ZADD", QByteArray("bull:emails:") + zset, "1", "2"});
        bull.writes.push_back({"SET", "bull:emails:id", "50"});
        bull.writes.push_back({"HSET", "bull:emails:meta", "opts.maxLenEvents", "10000"});
        bull.writes.push_back({"XADD", "bull:emails:events", "*", "event", "completed"});
        bull.writes.push_back({"SET", "bull:emails:stalled-check", "1", "PX", "30000"});
        bull.writes.push_back({"ZADD", "bull:emails:marker", "0", "0"});
        out.push_back(std::move(bull));
    }
    {
        Library sidekiq{"Sidekiq", "", {}};
        sidekiq.writes.push_back({"SADD", "queues", "default", "critical"});
        for (const char* queue : {"queue:default", "queue:critical"})
            sidekiq.writes.push_back(
                {"RPUSH", queue, "{\"class\":\"HardWorker\",\"jid\":\"b4a577edbccf1d805744efa9\"}"});
        for (const char* zset : {"schedule", "retry", "dead"})
            sidekiq.writes.push_back({"ZADD", zset, "1710000000", "{\"jid\":\"b4a577edbccf1d805744efa9\"}"});
        sidekiq.writes.push_back({"SADD", "processes", "worker-1:12345:0f8a1c2d3e4b"});
        sidekiq.writes.push_back({"HSET", "worker-1:12345:0f8a1c2d3e4b", "busy", "0", "beat", "1710000000"});
        sidekiq.writes.push_back({"EXPIRE", "worker-1:12345:0f8a1c2d3e4b", "60"});
        sidekiq.writes.push_back({"HSET", "worker-1:12345:0f8a1c2d3e4b:work", "tid", "{}"});
        sidekiq.writes.push_back({"SET", "stat:processed", "981723"});
        sidekiq.writes.push_back({"SET", "stat:failed", "1204"});
        for (const char* day : {"2024-03-09", "2024-03-10"}) {
            sidekiq.writes.push_back({"SET", QByteArray("stat:processed:") + day, "5000", "EX", "157680000"});
            sidekiq.writes.push_back({"SET", QByteArray("stat:failed:") + day, "12", "EX", "157680000"});
        }
        out.push_back(std::move(sidekiq));
    }
    {
        Library celery{"Celery", "", {}};
        celery.writes.push_back({"RPUSH", "celery", "{\"body\":\"\",\"headers\":{\"task\":\"tasks.add\"}}"});
        for (const char* set : {"_kombu.binding.celery", "_kombu.binding.celery.pidbox", "_kombu.binding.celeryev"})
            celery.writes.push_back({"SADD", set,
                                     "celery\x06\x16\x06\x16"
                                     "celery"});
        celery.writes.push_back({"HSET", "unacked", "tag", "{}"});
        celery.writes.push_back({"ZADD", "unacked_index", "1710000000", "tag"});
        for (int i = 0; i < 50; ++i)
            celery.writes.push_back({"SET", "celery-task-meta-" + uuid(i), "{\"status\":\"SUCCESS\"}", "EX", "86400"});
        out.push_back(std::move(celery));
    }
    {
        Library rq{"RQ", "rq:*", {}};
        rq.writes.push_back({"SADD", "rq:queues", "rq:queue:default"});
        rq.writes.push_back({"RPUSH", "rq:queue:default", uuid(0)});
        for (int i = 0; i < 50; ++i)
            rq.writes.push_back({"HSET", "rq:job:" + uuid(i), "status", "finished", "origin", "default"});
        rq.writes.push_back({"SADD", "rq:workers", "rq:worker:host.1234"});
        rq.writes.push_back({"SADD", "rq:workers:default", "rq:worker:host.1234"});
        rq.writes.push_back({"HSET", "rq:worker:host.1234", "state", "idle"});
        for (const char* registry : {"wip", "finished", "failed", "deferred", "scheduled"})
            rq.writes.push_back({"ZADD", QByteArray("rq:") + registry + ":default", "1710000000", uuid(1)});
        rq.writes.push_back({"SET", "rq:clean_registries:default", "1", "EX", "900"});
        out.push_back(std::move(rq));
    }
    {
        Library connect{"connect-redis", "sess:*", {}};
        for (int i = 0; i < 300; ++i)
            connect.writes.push_back({"SET", "sess:" + sessionId(i), "{\"cookie\":{}}", "EX", n(86400 - i * 97)});
        out.push_back(std::move(connect));
    }
    {
        Library rails{"Rails (cache store and sessions)", "", {}};
        for (int i = 0; i < 40; ++i) {
            rails.writes.push_back({"SET", "_session_id:2::" + QByteArray(64, "0123456789abcdef"[i % 16]) + n(i),
                                    "\x04\x08{}", "EX", n(1209600 - i * 131)});
            rails.writes.push_back(
                {"SET", "views/products/" + n(i) + "-20240310120000000000/index", "<html>", "EX", n(3600 + i * 37)});
        }
        out.push_back(std::move(rails));
    }
    {
        Library django{"Django (django-redis)", ":1:*", {}};
        for (int i = 0; i < 40; ++i) {
            django.writes.push_back({"SET",
                                     ":1:views.decorators.cache.cache_page..GET." + QByteArray::number(i * 7919, 16) +
                                         "d41d8cd98f00b204e9800998ecf8427e.en-us.UTC",
                                     "x", "EX", n(600 + i * 13)});
            django.writes.push_back(
                {"SET", ":1:django.contrib.sessions.cache" + djangoSessionKey(i), "x", "EX", n(1209600 - i * 71)});
        }
        out.push_back(std::move(django));
    }
    {
        Library limits{"rate limiters (rack-attack, rate-limit-redis)", "", {}};
        for (int i = 0; i < 40; ++i) {
            const QByteArray ip = "203.0.113." + n(i);
            limits.writes.push_back({"SET", "rack::attack:28415:req/ip:" + ip, "3", "EX", n(60 - i % 30)});
            limits.writes.push_back({"SET", "rl:" + ip, "7", "EX", n(900 - i * 11)});
        }
        out.push_back(std::move(limits));
    }
    return out;
}

} // namespace

class TestLibraryLint : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;

    std::map<QByteArray, std::set<QByteArray>> lint(const QStringList& extra = {})
    {
        const auto run =
            test::runCli(QStringList{QStringLiteral("lint"), QStringLiteral("-p"), QString::number(m_server.port()),
                                     QStringLiteral("--format"), QStringLiteral("json"),
                                     QStringLiteral("--max-examples"), QStringLiteral("0")} +
                         extra);
        std::map<QByteArray, std::set<QByteArray>> byKey;
        for (const QJsonValue& value :
             QJsonDocument::fromJson(run.out).object()[QStringLiteral("findings")].toArray()) {
            const QJsonObject finding = value.toObject();
            byKey[finding[QStringLiteral("key")].toString().toUtf8()].insert(
                finding[QStringLiteral("rule")].toString().toUtf8());
        }
        return byKey;
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        test::PlainClient client(m_server.port());
        for (const Library& library : libraries())
            QCOMPARE(client.pipeline(library.writes), std::size_t(0));
    }

    void verdictsPerLibrary()
    {
        const auto findings = lint();
        test::PlainClient client(m_server.port());
        const std::vector<QByteArray> keys = client.allKeys();
        for (const Library& library : libraries()) {
            std::set<QByteArray> written;
            for (const auto& write : library.writes)
                written.insert(write[1]);
            std::map<QByteArray, int> byRule;
            std::map<QByteArray, QByteArray> example;
            for (const QByteArray& key : written) {
                const auto it = findings.find(key);
                if (it == findings.end())
                    continue;
                for (const QByteArray& rule : it->second) {
                    ++byRule[rule];
                    example.emplace(rule, key);
                }
            }
            std::printf("%s: %zu keys\n", library.name, written.size());
            for (const auto& [rule, count] : byRule)
                std::printf("  %-20s %4d  e.g. %s\n", rule.constData(), count, example[rule].left(70).constData());

            // Ids, uuids, tokens and hashes are never words: no finding about words on a key whose only
            // capitals or short words are inside its ids.
            for (const QByteArray& key : written) {
                const auto it = findings.find(key);
                if (it == findings.end())
                    continue;
                // (`rq` itself is a two-letter word: cryptic-abbreviation is fair there, and silenced by an
                // alias or by ignoring rq:*.)
                const bool wordsOnlyInIds = key.startsWith("sess:") || key.startsWith("celery-task-meta-") ||
                                            key.startsWith("bull:emails:") || key.startsWith(":1:django");
                for (const char* wordRule : {"uppercase", "cryptic-abbreviation", "special-characters"}) {
                    if (wordsOnlyInIds ||
                        (key.startsWith("rq:job:") && QByteArrayView(wordRule) != "cryptic-abbreviation"))
                        QVERIFY2(!it->second.count(wordRule), key.constData());
                }
            }
        }
        // Expiring keys written by these libraries carry their TTL: nothing of theirs lacks one.
        for (const auto& [key, rules] : findings)
            QVERIFY2(!rules.count("missing-ttl"), key.constData());
    }

    // On a server: `keylens-cli scan` and `lint` read the `queues` set after the scan, and lists it does not
    // name are no library's. (In a database of their own, beside the libraries above.)
    void queuesSetMustNameItsLists()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.pipeline({{"SELECT", "3"},
                                  {"SADD", "queues", "default"},
                                  {"RPUSH", "queue:default", "{\"jid\":\"1\"}"},
                                  {"RPUSH", "queue:Reports", "{\"jid\":\"2\"}"},
                                  {"ZADD", "retry", "1710000000", "{\"jid\":\"3\"}"}}),
                 std::size_t(0));
        const auto libraries = [&](const QStringList& extra = {}) {
            const auto run =
                test::runCli(QStringList{QStringLiteral("scan"), QStringLiteral("-p"), QString::number(m_server.port()),
                                         QStringLiteral("-n"), QStringLiteral("3"), QStringLiteral("--format"),
                                         QStringLiteral("json")} +
                             extra);
            QStringList ids;
            if (run.exitCode != 0)
                ids << QStringLiteral("exit %1").arg(run.exitCode);
            for (const QJsonValue& value :
                 QJsonDocument::fromJson(run.out).object()[QStringLiteral("libraries")].toArray())
                ids << value.toObject()[QStringLiteral("library")].toString();
            return ids;
        };
        const auto uppercaseFindings = [&] {
            const auto run = test::runCli({QStringLiteral("lint"), QStringLiteral("-p"),
                                           QString::number(m_server.port()), QStringLiteral("-n"), QStringLiteral("3"),
                                           QStringLiteral("--format"), QStringLiteral("json")});
            int count = 0;
            for (const QJsonValue& value :
                 QJsonDocument::fromJson(run.out).object()[QStringLiteral("findings")].toArray())
                count += value.toObject()[QStringLiteral("rule")].toString() == QStringLiteral("uppercase");
            return count;
        };
        // `queue:Reports` is not named: no Sidekiq, and its capital is the team's finding.
        QCOMPARE(libraries(), QStringList());
        QCOMPARE(uppercaseFindings(), 1);
        // A user who may not read the set: the scan goes on, and the names and types decide.
        test::PlainClient(m_server.port())
            .command({"ACL", "SETUSER", "nosmembers", "on", ">pw", "~*", "+@all", "-smembers"});
        QCOMPARE(libraries({QStringLiteral("--user"), QStringLiteral("nosmembers"), QStringLiteral("-a"),
                            QStringLiteral("pw"), QStringLiteral("--no-auth-warning")}),
                 QStringList{QStringLiteral("sidekiq")});
        // Named, the layout is Sidekiq's: labelled, and its naming is the library's.
        QCOMPARE(client.pipeline({{"SELECT", "3"}, {"SADD", "queues", "Reports"}}), std::size_t(0));
        QCOMPARE(libraries(), QStringList{QStringLiteral("sidekiq")});
        QCOMPARE(uppercaseFindings(), 0);
        QCOMPARE(client.pipeline({{"SELECT", "3"}, {"FLUSHDB"}}), std::size_t(0));
    }

    void oneGlobSilencesALibrary()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("libraries.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ \"namespaces\": { \"ignore\": [\"bull:*\", \"rq:*\", \"sess:*\", \":1:*\", \"rack::attack:*\",\n "
                   "                       \"celery*\", \"_kombu.*\", \"unacked*\", \"_session_id:*\", \"views/*\", "
                   "\"rl:*\",\n                        \"queue:*\", \"queues\", \"schedule\", \"retry\", \"dead\", "
                   "\"processes\", \"stat:*\", \"worker-1:*\"] } }");
        file.close();
        const auto findings = lint({QStringLiteral("--profile"), path});
        for (const auto& [key, rules] : findings)
            qWarning("still flagged: %s", key.constData());
        QVERIFY(findings.empty());
    }
};

QTEST_GUILESS_MAIN(TestLibraryLint)
#include "tst_librarylint.moc"
