// keylens-cli as scripts use it: exit codes, stdout/stderr discipline, and the JSON report's numbers
// against the server's own.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>

using namespace keylens;

class TestCli : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QString m_port;

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        m_port = QString::number(m_server.port());
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 3000; ++i)
            commands.push_back(
                {"HSET", "user:" + QByteArray::number(i) + ":profile", "name", QByteArray(i % 200, 'n')});
        for (int i = 0; i < 1500; ++i)
            commands.push_back({"SET", "session:" + QByteArray::number(i), "x", "EX", "600"});
        for (int i = 0; i < 200; ++i)
            commands.push_back({"RPUSH", "queue:" + QByteArray::number(i % 4) + ":" + QByteArray::number(i), "job"});
        commands.push_back({"SET",
                            QByteArray("\xff\x00"
                                       "bin:1",
                                       7),
                            "binary"}); // a namespace with a binary name
        commands.push_back({"SET", "plain", "no delimiter"});
        commands.push_back({"ZADD", "big:zset", "1", "a", "2", "b"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    void jsonMatchesTheServer()
    {
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--format"),
                                       QStringLiteral("json"), QStringLiteral("--top"), QStringLiteral("5")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty()); // no progress bar when stderr is not a terminal
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);

        test::PlainClient truth(m_server.port());
        const long long dbsize = truth.integer({"DBSIZE"});
        QCOMPARE(root[QStringLiteral("server")].toObject()[QStringLiteral("dbsize")].toInteger(), dbsize);
        QCOMPARE(root[QStringLiteral("scan")].toObject()[QStringLiteral("keys")].toInteger(), dbsize);
        QVERIFY(root[QStringLiteral("scan")].toObject()[QStringLiteral("complete")].toBool());
        QCOMPARE(root[QStringLiteral("totals")].toObject()[QStringLiteral("keys")].toInteger(), dbsize);
        QCOMPARE(root[QStringLiteral("totals")].toObject()[QStringLiteral("keys_with_ttl")].toInteger(), 1500);

        const QJsonArray namespaces = root[QStringLiteral("namespaces")].toArray();
        qint64 previousMemory = std::numeric_limits<qint64>::max();
        bool sawBinary = false;
        for (const QJsonValue& value : namespaces) {
            const QJsonObject entry = value.toObject();
            const qint64 memory = entry[QStringLiteral("memory_bytes")].toInteger();
            QVERIFY(memory <= previousMemory); // sorted by memory, biggest first
            previousMemory = memory;
            QByteArray path = entry[QStringLiteral("path")].toString().toUtf8();
            if (entry.contains(QStringLiteral("path_base64"))) {
                path = QByteArray::fromBase64(entry[QStringLiteral("path_base64")].toString().toLatin1());
                sawBinary = true;
            }
            // Keys and memory per namespace equal what the server reports key by key.
            std::vector<QByteArray> keys = truth.allKeys(path + '*');
            qint64 truthMemory = 0;
            for (const QByteArray& key : keys)
                truthMemory += truth.integer({"MEMORY", "USAGE", key});
            QCOMPARE(entry[QStringLiteral("keys")].toInteger(), qint64(keys.size()));
            QCOMPARE(memory, truthMemory);
        }
        QVERIFY(sawBinary);
        QCOMPARE(namespaces.first().toObject()[QStringLiteral("path")].toString(), QStringLiteral("user:"));
        const QJsonArray top = root[QStringLiteral("top_keys")].toArray();
        QCOMPARE(top.size(), 5);
        QCOMPARE(top[0].toObject()[QStringLiteral("memory_bytes")].toInteger(),
                 truth.integer({"MEMORY", "USAGE", top[0].toObject()[QStringLiteral("key")].toString().toUtf8()}));
    }

    // --patterns: the ids folded; the list partitions the keys, and each pattern's keys and memory are the
    // server's for the keys of that shape.
    void patternsPartitionTheKeyspace()
    {
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--format"),
                                       QStringLiteral("json"), QStringLiteral("--patterns")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonArray patterns = root[QStringLiteral("patterns")].toArray();
        qint64 keys = 0;
        qint64 previousMemory = std::numeric_limits<qint64>::max();
        std::map<QString, QJsonObject> byPattern;
        for (const QJsonValue& value : patterns) {
            const QJsonObject entry = value.toObject();
            keys += entry[QStringLiteral("keys")].toInteger();
            QVERIFY(entry[QStringLiteral("memory_bytes")].toInteger() <= previousMemory);
            previousMemory = entry[QStringLiteral("memory_bytes")].toInteger();
            QVERIFY(!entry[QStringLiteral("examples")].toArray().isEmpty());
            byPattern[entry[QStringLiteral("pattern")].toString()] = entry;
        }
        QCOMPARE(keys, root[QStringLiteral("totals")].toObject()[QStringLiteral("keys")].toInteger());
        QCOMPARE(patterns.first().toObject()[QStringLiteral("pattern")].toString(),
                 QStringLiteral("user:<int>:profile"));

        test::PlainClient truth(m_server.port());
        const std::vector<QByteArray> profiles = truth.allKeys("user:*:profile");
        qint64 memory = 0;
        for (const QByteArray& key : profiles)
            memory += truth.integer({"MEMORY", "USAGE", key});
        const QJsonObject users = byPattern.at(QStringLiteral("user:<int>:profile"));
        QCOMPARE(users[QStringLiteral("keys")].toInteger(), qint64(profiles.size()));
        QCOMPARE(users[QStringLiteral("memory_bytes")].toInteger(), memory);
        QCOMPARE(users[QStringLiteral("types")].toObject()[QStringLiteral("hash")].toInteger(),
                 qint64(profiles.size()));
        const QJsonObject sessions = byPattern.at(QStringLiteral("session:<int>"));
        QCOMPARE(sessions[QStringLiteral("keys_with_ttl")].toInteger(), qint64(truth.allKeys("session:*").size()));
        QVERIFY(byPattern.count(QStringLiteral("queue:<int>:<int>")));
        QVERIFY(byPattern.count(QStringLiteral("plain")));
        // A binary key is written as redis-cli shows it, as in `top_keys` and `namespaces`.
        const QJsonObject binary = byPattern.at(QStringLiteral("\\xff\\x00bin:<int>"));
        QCOMPARE(binary[QStringLiteral("examples")].toArray().first().toString(), QStringLiteral("\\xff\\x00bin:1"));
        // And its exact bytes, as every byte field has them: the escaped text alone cannot be told from a key that is
        // spelled with backslashes.
        const QJsonArray exact = binary[QStringLiteral("examples_base64")].toArray();
        QCOMPARE(exact.size(), binary[QStringLiteral("examples")].toArray().size());
        QCOMPARE(QByteArray::fromBase64(exact.first().toString().toLatin1()), QByteArray("\xff\x00"
                                                                                         "bin:1",
                                                                                         7));
        QVERIFY(!users.contains(QStringLiteral("examples_base64")));             // printable: the text is exact
        QCOMPARE(root[QStringLiteral("namespaces")].toArray().size() > 0, true); // the rest of the report stays

        // Text: a pattern table after the namespaces.
        const auto text =
            test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--patterns")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("\nPATTERN "), text.out.constData());
        QVERIFY(text.out.contains("user:<int>:profile"));
    }

    // Keys as BullMQ, Sidekiq and Celery write them (their documented layouts), beside look-alikes: the
    // JSON labels the libraries' namespaces and patterns, and nothing else.
    void libraryLayoutsAreLabelled()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", "5"}), QByteArray("OK"));
        const QByteArray uuid = "5f1c2a7e-9b3d-4c8e-a1f2-0e6d7c8b9a01";
        client.pipeline({{"SET", "bull:mail:id", "3"},
                         {"RPUSH", "bull:mail:wait", "3"},
                         {"ZADD", "bull:mail:completed", "1", "1"},
                         {"HSET", "bull:mail:meta", "opts.maxLenEvents", "10000"},
                         {"HSET", "bull:mail:1", "name", "welcome", "data", "{}"},
                         {"HSET", "bull:mail:2", "name", "welcome", "data", "{}"},
                         {"SADD", "queues", "default"},
                         {"RPUSH", "queue:default", "{\"class\":\"HardWorker\"}"},
                         {"ZADD", "retry", "1", "job"},
                         {"SET", "stat:processed", "12"},
                         {"SET", "celery-task-meta-" + uuid, "{\"status\": \"SUCCESS\"}"},
                         {"RPUSH", "jobs:pending", "1"},
                         {"SET", "stats:id", "1"},
                         {"RPUSH", "stats:active", "1"}});
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("-n"),
                                       QStringLiteral("5"), QStringLiteral("--format"), QStringLiteral("json"),
                                       QStringLiteral("--patterns")});
        client.command({"FLUSHDB"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        std::map<QString, QString> patternLibrary;
        for (const QJsonValue& value : root[QStringLiteral("patterns")].toArray()) {
            const QJsonObject entry = value.toObject();
            patternLibrary[entry[QStringLiteral("pattern")].toString()] = entry[QStringLiteral("library")].toString();
        }
        QCOMPARE(patternLibrary.at(QStringLiteral("bull:mail:wait")), QStringLiteral("bullmq"));
        QCOMPARE(patternLibrary.at(QStringLiteral("queue:default")), QStringLiteral("sidekiq"));
        // One result only: its id is all there is below `celery-task-meta-`, so it folds.
        QVERIFY(!patternLibrary.count(QString::fromLatin1("celery-task-meta-" + uuid)));
        QCOMPARE(patternLibrary.at(QStringLiteral("celery-task-meta-<uuid>")), QStringLiteral("celery"));
        QCOMPARE(patternLibrary.at(QStringLiteral("jobs:pending")), QString());
        QCOMPARE(patternLibrary.at(QStringLiteral("stats:id")), QString());
        std::map<QString, QString> namespaceLibrary;
        for (const QJsonValue& value : root[QStringLiteral("namespaces")].toArray()) {
            const QJsonObject entry = value.toObject();
            namespaceLibrary[entry[QStringLiteral("path")].toString()] = entry[QStringLiteral("library")].toString();
        }
        QCOMPARE(namespaceLibrary.at(QStringLiteral("bull:")), QStringLiteral("bullmq"));
        QCOMPARE(namespaceLibrary.at(QStringLiteral("queue:")), QStringLiteral("sidekiq"));
        QCOMPARE(namespaceLibrary.at(QStringLiteral("stats:")), QString());
        QStringList libraries;
        for (const QJsonValue& value : root[QStringLiteral("libraries")].toArray())
            libraries << value.toObject()[QStringLiteral("library")].toString();
        libraries.sort();
        QCOMPARE(libraries,
                 QStringList({QStringLiteral("bullmq"), QStringLiteral("celery"), QStringLiteral("sidekiq")}));
    }

    // The report says which speed the scan used: full by default on loopback, gentle when asked; the same keys.
    void reportSaysTheSpeed()
    {
        qint64 keys[2] = {};
        for (const bool gentle : {false, true}) {
            QStringList arguments = {QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--format"),
                                     QStringLiteral("json")};
            if (gentle)
                arguments << QStringLiteral("--speed") << QStringLiteral("gentle");
            const auto run = test::runCli(arguments);
            QCOMPARE(run.exitCode, 0);
            const QJsonObject scan = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("scan")).toObject();
            QCOMPARE(scan.value(QStringLiteral("speed")).toString(),
                     gentle ? QStringLiteral("gentle") : QStringLiteral("full"));
            QVERIFY(scan.contains(QStringLiteral("backoffs")));
            keys[gentle] = scan.value(QStringLiteral("keys")).toInteger();
        }
        QCOMPARE(keys[1], keys[0]);
        const auto text = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--speed"),
                                        QStringLiteral("gentle")});
        QVERIFY2(text.out.contains("gentle speed"), text.out.left(300).constData());
    }

    // An empty database is not "the database is empty" when the server holds keys in another: it says where
    // (INFO keyspace, asked beside DBSIZE).
    void anEmptyDatabaseSaysWhereTheKeysAre()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"SELECT", "3"}), QByteArray("OK"));
        QCOMPARE(client.pipeline({{"SET", "elsewhere:1", "v"}, {"SET", "elsewhere:2", "v"}}), std::size_t(0));
        const test::CliRun run = test::runCli(
            {QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("-n"), QStringLiteral("5")});
        QCOMPARE(client.command({"FLUSHDB"}), QByteArray("OK"));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("No keys in db5; the server holds ") && run.out.contains("2 keys in db3 (-n 3)"),
                 run.out.constData());
        QVERIFY2(!run.out.contains("the database is empty"), run.out.constData());
    }

    void textReport()
    {
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("redis://127.0.0.1:") + m_port});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("NAMESPACE"));
        QVERIFY(run.out.contains("user:"));
        QVERIFY(run.out.contains("\\xff\\x00bin:"));
        QVERIFY(run.out.contains("Biggest keys"));
    }

    void outputFileAndDepth()
    {
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("report.json"));
        const auto run =
            test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--format"),
                          QStringLiteral("json"), QStringLiteral("--output"), path, QStringLiteral("--depth"),
                          QStringLiteral("1"), QStringLiteral("--width"), QStringLiteral("2")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.isEmpty());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonArray namespaces = root[QStringLiteral("namespaces")].toArray();
        QCOMPARE(namespaces.size(), 2);
        QVERIFY(namespaces[0].toObject()[QStringLiteral("children")].toArray().isEmpty());
        // user, session, queue, bin and big: two shown, three summed.
        QCOMPARE(root[QStringLiteral("others")].toObject()[QStringLiteral("namespaces")].toInt(), 3);
    }

    void delimiterAndFilters()
    {
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--format"),
                                       QStringLiteral("json"), QStringLiteral("--match"), QStringLiteral("queue:*"),
                                       QStringLiteral("--type"), QStringLiteral("list"), QStringLiteral("--count"),
                                       QStringLiteral("50"), QStringLiteral("--no-memory")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root[QStringLiteral("totals")].toObject()[QStringLiteral("keys")].toInteger(), 200);
        QVERIFY(root[QStringLiteral("totals")].toObject()[QStringLiteral("memory_bytes")].isNull());
        QVERIFY(!root[QStringLiteral("scan")].toObject()[QStringLiteral("memory_measured")].toBool());
        const QJsonObject queue = root[QStringLiteral("namespaces")].toArray()[0].toObject();
        QCOMPARE(queue[QStringLiteral("children")].toArray().size(), 4);
    }

    // Keys that use '/' beside ':' (in db 1): the scan says how many, and --delimiter ':/' splits on both, every key
    // in the namespace and the pattern that the server's own SCAN MATCH puts it in.
    void severalDelimiters()
    {
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands{{"SELECT", "1"}};
        for (int i = 0; i < 60; ++i) {
            commands.push_back({"SET", "users/" + QByteArray::number(i) + "/avatar", "a.png"});
            commands.push_back({"SET", "users/" + QByteArray::number(i) + "/name", "n"});
        }
        for (int i = 0; i < 40; ++i)
            commands.push_back({"HSET", "user:" + QByteArray::number(i), "f", "v"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        const long long slashed = client.elements({"KEYS", "users/*"}).size();
        const long long avatars = client.elements({"KEYS", "users/*/avatar"}).size();
        const QString db1 = QStringLiteral("redis://127.0.0.1:%1/1").arg(m_port);
        const auto scan = [&](const QStringList& more) {
            const auto run = test::runCli(QStringList{QStringLiteral("scan"), db1, QStringLiteral("--format"),
                                                      QStringLiteral("json"), QStringLiteral("--patterns")} +
                                          more);
            [&] { QCOMPARE(run.exitCode, 0); }();
            return QJsonDocument::fromJson(run.out).object();
        };

        const QJsonObject colon = scan({});
        const QJsonArray suggested =
            colon[QStringLiteral("scan")].toObject()[QStringLiteral("other_delimiters")].toArray();
        QVERIFY(!suggested.isEmpty());
        QCOMPARE(suggested[0].toObject()[QStringLiteral("delimiter")].toString(), QStringLiteral("/"));
        QCOMPARE(suggested[0].toObject()[QStringLiteral("keys")].toInteger(), slashed);

        const QJsonObject both = scan({QStringLiteral("--delimiter"), QStringLiteral(":/")});
        QCOMPARE(both[QStringLiteral("scan")].toObject()[QStringLiteral("delimiter")].toString(), QStringLiteral(":/"));
        QVERIFY(both[QStringLiteral("scan")].toObject()[QStringLiteral("other_delimiters")].toArray().isEmpty());
        QHash<QString, qint64> namespaces;
        for (const QJsonValue& entry : both[QStringLiteral("namespaces")].toArray())
            namespaces[entry[QStringLiteral("path")].toString()] = entry[QStringLiteral("keys")].toInteger();
        QCOMPARE(namespaces.value(QStringLiteral("users/")), slashed);
        QCOMPARE(namespaces.value(QStringLiteral("user:")), 40);
        QHash<QString, qint64> patterns;
        for (const QJsonValue& entry : both[QStringLiteral("patterns")].toArray())
            patterns[entry[QStringLiteral("pattern")].toString()] = entry[QStringLiteral("keys")].toInteger();
        QCOMPARE(patterns.value(QStringLiteral("users/<int>/avatar")), avatars);

        const auto text = test::runCli({QStringLiteral("scan"), db1});
        QVERIFY2(text.out.contains(
                     QByteArray(QByteArray::number(slashed) + " keys also use '/': split on it too? --delimiter ':/'")),
                 text.out.constData());
        // The convention's delimiters are the scan's: '/' is no `delimiter` finding once it is one.
        const auto lint = test::runCli({QStringLiteral("lint"), db1, QStringLiteral("--format"), QStringLiteral("json"),
                                        QStringLiteral("--delimiter"), QStringLiteral(":/")});
        for (const QJsonValue& finding :
             QJsonDocument::fromJson(lint.out).object()[QStringLiteral("findings")].toArray())
            QVERIFY(finding[QStringLiteral("rule")].toString() != QStringLiteral("delimiter"));
        client.command({"SELECT", "1"});
        client.command({"FLUSHDB"});
    }

    // On a terminal, stderr shows a progress bar that ends cleared; elsewhere (all the tests above) nothing.
    void progressBarOnATerminal()
    {
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        if (script.isEmpty())
            QSKIP("script(1) from bsdutils is needed to give keylens-cli a terminal");
        const QString command = QStringLiteral(KEYLENS_CLI_PATH) + QStringLiteral(" scan -p ") + m_port +
                                QStringLiteral(" --count 100 --max-rate 5000 --output /dev/null");
        QProcess process;
        process.start(script, {QStringLiteral("-qfec"), command, QStringLiteral("/dev/null")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        const QByteArray terminal = process.readAllStandardOutput();
        QVERIFY2(terminal.contains("keys/s"), terminal.constData());
        QVERIFY(terminal.contains("/ 4,703 keys")); // keys seen of DBSIZE
        QVERIFY(terminal.contains("ETA"));
        QVERIFY(terminal.endsWith("\r\033[K")); // the bar is gone when the scan is done
    }

    void usageErrorsExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")};
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("scan"), QStringLiteral("--bogus")};
        QTest::newRow("bad format") << QStringList{QStringLiteral("scan"), QStringLiteral("--format"),
                                                   QStringLiteral("xml")};
        QTest::newRow("bad delimiter") << QStringList{QStringLiteral("scan"), QStringLiteral("--delimiter"),
                                                      QStringLiteral("::")};
        QTest::newRow("bad depth") << QStringList{QStringLiteral("scan"), QStringLiteral("--depth"),
                                                  QStringLiteral("-1")};
        QTest::newRow("bad uri") << QStringList{QStringLiteral("scan"), QStringLiteral("http://x")};
        QTest::newRow("bad keys") << QStringList{QStringLiteral("demo"), QStringLiteral("--keys"),
                                                 QStringLiteral("many")};
        QTest::newRow("bad speed") << QStringList{QStringLiteral("scan"), QStringLiteral("--speed"),
                                                  QStringLiteral("fast")};
    }
    // An option that cannot be honoured is refused, naming what it needs (they were ignored, exit 0, or the message
    // blamed the value).
    void optionsWithoutWhatTheyNeedAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("--cold-after without --access")
            << QStringList{QStringLiteral("--cold-after"), QStringLiteral("1d")}
            << QByteArray("--cold-after needs --access");
        QTest::newRow("--exact-memory-cap without --exact-memory")
            << QStringList{QStringLiteral("--exact-memory-cap"), QStringLiteral("5000")}
            << QByteArray("--exact-memory-cap needs --exact-memory");
        QTest::newRow("URI with two databases")
            << QStringList{QStringLiteral("redis://127.0.0.1:%1/0?db=3").arg(m_port)}
            << QByteArray("two databases, /0 and ?db=3");
        QTest::newRow("URI with an unknown parameter")
            << QStringList{QStringLiteral("redis://127.0.0.1:%1?foo=bar").arg(m_port)}
            << QByteArray("query parameters Keylens does not know: 'foo'");
        QTest::newRow("URI with a bad percent-encoding")
            << QStringList{QStringLiteral("redis://user:Canary%zzPw@127.0.0.1:%1").arg(m_port)}
            << QByteArray("the password (not shown) in the URI has a '%' not followed by two hex digits");
    }
    void optionsWithoutWhatTheyNeedAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, says);
        const bool uri = arguments.front().startsWith(QLatin1String("redis://"));
        const auto run = test::runCli(QStringList{QStringLiteral("scan")} +
                                      (uri ? QStringList{} : QStringList{QStringLiteral("-p"), m_port}) + arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(says), run.err.constData());
        QVERIFY(run.out.isEmpty());
        QVERIFY2(!run.err.contains("CanaryPw") && !run.err.contains("Canary%zz"), run.err.constData());
        // What is honoured instead: ?db= alone, --cold-after with --access, the cap with --exact-memory.
    }

    void optionsWithWhatTheyNeedAreHonoured()
    {
        const auto json = [&](const QStringList& arguments) {
            const auto run = test::runCli(QStringList{QStringLiteral("scan")} + arguments +
                                          QStringList{QStringLiteral("--format"), QStringLiteral("json")});
            return run.exitCode == 0 ? QJsonDocument::fromJson(run.out).object() : QJsonObject();
        };
        const QJsonObject db3 = json({QStringLiteral("redis://127.0.0.1:%1?db=3").arg(m_port)});
        QCOMPARE(db3[QLatin1String("server")][QLatin1String("db")].toInt(-1), 3);
        const QJsonObject cold = json({QStringLiteral("-p"), m_port, QStringLiteral("--access"),
                                       QStringLiteral("--cold-after"), QStringLiteral("1d")});
        QCOMPARE(cold[QLatin1String("scan")][QLatin1String("cold_after_s")].toInt(), 86400);
        const QJsonObject capped = json({QStringLiteral("-p"), m_port, QStringLiteral("--exact-memory"),
                                         QStringLiteral("--exact-memory-cap"), QStringLiteral("5000")});
        QCOMPARE(capped[QLatin1String("scan")][QLatin1String("exact_memory_cap")].toInt(), 5000);
    }

    // A scan held to --max-rate says the rate it was held to (it said "full speed").
    void aRateCapIsSaid()
    {
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), m_port,
                                       QStringLiteral("--max-rate"), QStringLiteral("100000")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("keys/s, full speed held to --max-rate 100,000 keys/s)"), run.out.constData());
    }

    // A reader that closes the pipe (`scan | head -1`) ends the scan quietly, as other Unix tools: exit 0 or 141
    // (128 + SIGPIPE), no message (it said "cannot write the report to standard output: Broken pipe", exit 1).
    void aReaderThatGoesAwayEndsItQuietly()
    {
        QProcess shell;
        shell.start(QStringLiteral("bash"), {QStringLiteral("-c"),
                                             QStringLiteral("\"$0\" scan -p \"$1\" --top 5000 --format json | true; "
                                                            "echo \"exit ${PIPESTATUS[0]}\""),
                                             QStringLiteral(KEYLENS_CLI_PATH), m_port});
        QVERIFY(shell.waitForFinished(60000));
        const QByteArray out = shell.readAllStandardOutput().trimmed();
        const QByteArray err = shell.readAllStandardError();
        QVERIFY2(out == "exit 141" || out == "exit 0", out.constData());
        QVERIFY2(err.isEmpty(), err.constData());
    }

    void usageErrorsExitTwo()
    {
        QFETCH(QStringList, arguments);
        const auto run = test::runCli(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY(!run.err.isEmpty());
    }

    void connectionErrorsExitThree()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const QString deadPort = QString::number(probe.serverPort());
        probe.close();
        const auto dead = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), deadPort});
        QCOMPARE(dead.exitCode, 3);
        QVERIFY(dead.out.isEmpty());
        QVERIFY(dead.err.contains("connection refused"));

        const auto tls = test::runCli({QStringLiteral("scan"), QStringLiteral("rediss://127.0.0.1:") + m_port});
        QCOMPARE(tls.exitCode, 3); // TLS to a plain port: a handshake that fails, said as such
        QVERIFY(tls.out.isEmpty());
        QVERIFY2(tls.err.contains("TLS"), tls.err.constData());
    }

    // Ctrl-C (or SIGTERM) mid-scan: what was scanned is printed, marked incomplete, exit 130.
    void interruptPrintsThePartialReport()
    {
        QProcess process;
        test::PlainClient admin(m_server.port());
        const long long asked = admin.commandCalls("pttl");
        test::startCli(process, {QStringLiteral("scan"), QStringLiteral("-p"), m_port, QStringLiteral("--format"),
                                 QStringLiteral("json"), QStringLiteral("--count"), QStringLiteral("100"),
                                 QStringLiteral("--max-rate"), QStringLiteral("1000")});
        // Mid-scan: the server has been asked about five batches (the answers of the first ones are read by then). A
        // fixed 1.5 s could end before a loaded machine had the scan started.
        QTRY_VERIFY_WITH_TIMEOUT(admin.commandCalls("pttl") >= asked + 500 || process.state() != QProcess::Running,
                                 60000);
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        const auto run = test::finishCli(process);
        QCOMPARE(run.exitCode, 130);
        const QJsonObject scan = QJsonDocument::fromJson(run.out).object()[QStringLiteral("scan")].toObject();
        QVERIFY(!scan[QStringLiteral("complete")].toBool());
        QVERIFY(scan[QStringLiteral("cancelled")].toBool());
        QVERIFY(scan[QStringLiteral("keys")].toInteger() > 0);
        QVERIFY(scan[QStringLiteral("keys")].toInteger() < 4703);
    }

    // The server dies mid-scan: the partial report, the error on stderr, exit 1.
    void serverLostMidScanExitsOne()
    {
        demo::RedisServerProcess doomed;
        KEYLENS_START_SERVER(doomed);
        test::PlainClient client(doomed.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 20000; ++i)
            commands.push_back({"SET", "d:" + QByteArray::number(i), "v"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        QProcess process;
        test::startCli(process, {QStringLiteral("scan"), QStringLiteral("-p"), QString::number(doomed.port()),
                                 QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--count"),
                                 QStringLiteral("100"), QStringLiteral("--max-rate"), QStringLiteral("4000")});
        // Mid-scan: the server has been asked about ten batches (waited for, not a fixed time: see above).
        QTRY_VERIFY_WITH_TIMEOUT(client.commandCalls("pttl") >= 1000 || process.state() != QProcess::Running, 60000);
        doomed.stop();
        const auto run = test::finishCli(process);
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains("stopped early"));
        const QJsonObject scan = QJsonDocument::fromJson(run.out).object()[QStringLiteral("scan")].toObject();
        QVERIFY(!scan[QStringLiteral("complete")].toBool());
        QVERIFY(!scan[QStringLiteral("error")].toString().isEmpty());
        QVERIFY(scan[QStringLiteral("keys")].toInteger() > 0);
    }

    void wrongPasswordExitsThree()
    {
        demo::RedisServerProcess locked;
        demo::RedisServerProcess::Options options;
        options.configText = "requirepass right\n";
        KEYLENS_START_SERVER(locked, options);
        const QString port = QString::number(locked.port());
        const auto wrong = test::runCli(
            {QStringLiteral("scan"), QStringLiteral("-p"), port, QStringLiteral("-a"), QStringLiteral("wrong")});
        QCOMPARE(wrong.exitCode, 3);
        QVERIFY(wrong.out.isEmpty());
        QVERIFY(wrong.err.contains("authentication failed"));

        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("REDISCLI_AUTH"), QStringLiteral("right"));
        const auto viaEnvironment = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), port}, environment);
        QCOMPARE(viaEnvironment.exitCode, 0);

        environment.remove(QStringLiteral("REDISCLI_AUTH"));
        environment.insert(QStringLiteral("REDIS_URL"), QStringLiteral("redis://:right@127.0.0.1:") + port);
        const auto viaUrl =
            test::runCli({QStringLiteral("scan"), QStringLiteral("--format"), QStringLiteral("json")}, environment);
        QCOMPARE(viaUrl.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(viaUrl.out)
                     .object()[QStringLiteral("server")]
                     .toObject()[QStringLiteral("address")]
                     .toString(),
                 QStringLiteral("127.0.0.1:") + port);
    }

    // The password kept out of the process's arguments: from a file (--pass-file), or asked (--askpass; a script
    // pipes it into stdin). One source at a time; an unreadable file is a usage error.
    void passwordFromAFileOrAsked()
    {
        demo::RedisServerProcess locked;
        demo::RedisServerProcess::Options options;
        options.configText = "requirepass \"p@ss word\"\n";
        KEYLENS_START_SERVER(locked, options);
        const QString port = QString::number(locked.port());
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("password"));
        QFile written(file);
        QVERIFY(written.open(QIODevice::WriteOnly));
        written.write("p@ss word\n");
        written.close();
        const auto fromFile =
            test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), port, QStringLiteral("--pass-file"), file});
        QVERIFY2(fromFile.exitCode == 0, fromFile.err.constData());

        const auto asked = [&](const QByteArray& typed) {
            QProcess process;
            test::startCli(process, {QStringLiteral("scan"), QStringLiteral("-p"), port, QStringLiteral("--askpass")});
            process.write(typed);
            process.closeWriteChannel();
            return test::finishCli(process, 60000);
        };
        QCOMPARE(asked("p@ss word\n").exitCode, 0);
        const auto wrong = asked("nope\n");
        QCOMPARE(wrong.exitCode, 3);
        QVERIFY(wrong.err.contains("authentication failed"));
        QCOMPARE(asked({}).exitCode, 2); // nothing typed

        QCOMPARE(test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), port, QStringLiteral("--pass-file"),
                               dir.filePath(QStringLiteral("none"))})
                     .exitCode,
                 2);
        QCOMPARE(test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), port, QStringLiteral("--pass-file"), file,
                               QStringLiteral("-a"), QStringLiteral("x")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
