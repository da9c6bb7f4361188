// keylens-cli lint against a server seeded with known mistakes: exact counts per rule, exit codes per
// --fail-on, profiles that change outcomes, examples and formats.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace keylens;

class TestLint : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QString m_port;

    test::CliRun lint(const QStringList& extra = {})
    {
        return test::runCli(QStringList{QStringLiteral("lint"), QStringLiteral("-p"), m_port} + extra);
    }
    QJsonObject lintJson(const QStringList& extra = {})
    {
        const auto run = lint(QStringList{QStringLiteral("--format"), QStringLiteral("json")} + extra);
        return QJsonDocument::fromJson(run.out).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        m_port = QString::number(m_server.port());
        test::PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        const auto set = [&](const QByteArray& key, const QByteArray& value = "v") {
            commands.push_back({"SET", key, value});
        };
        for (int i = 0; i < 20; ++i)
            set("order:detail:" + QByteArray::number(i)); // clean
        for (int i = 0; i < 10; ++i)
            commands.push_back({"SET", "cache:api:page:" + QByteArray::number(i), "v", "EX", "600"}); // clean
        for (int i = 0; i < 3; ++i)
            set("user:" + QByteArray::number(i) + ":profile"); // clean by default, mid-key-id when strict
        for (int i = 0; i < 5; ++i)
            set("User:" + QByteArray::number(i)); // uppercase
        for (int i = 0; i < 4; ++i)
            set("user_" + QByteArray::number(i) + "_profile"); // delimiter
        for (int i = 0; i < 6; ++i)
            set("session:a" + QByteArray::number(i)); // missing-ttl
        set("123:user:settings");                     // id-first
        set("456:user:settings");                     // id-first
        set("key1");                                  // placeholder-name
        set("foo");                                   // placeholder-name
        set("blob:big", QByteArray(20 * 1024, 'x'));  // big-string
        set(QByteArray("bin:\xff", 5));               // binary-key
        QCOMPARE(client.pipeline(commands), std::size_t(0));
    }

    void countsAreExact()
    {
        const QJsonObject report = lintJson();
        test::PlainClient truth(m_server.port());
        QCOMPARE(report[QStringLiteral("keys_scanned")].toInteger(), truth.integer({"DBSIZE"}));
        QCOMPARE(report[QStringLiteral("profile")].toString(), QStringLiteral("default"));
        const QJsonObject summary = report[QStringLiteral("summary")].toObject();
        const QJsonObject byRule = summary[QStringLiteral("by_rule")].toObject();
        const std::map<QString, int> expected = {
            {QStringLiteral("uppercase"), 5},        {QStringLiteral("delimiter"), 4},
            {QStringLiteral("missing-ttl"), 6},      {QStringLiteral("id-first"), 2},
            {QStringLiteral("placeholder-name"), 2}, {QStringLiteral("big-string"), 1},
            {QStringLiteral("binary-key"), 1},       {QStringLiteral("naming-variants"), 4}, // user_<int>_profile
        };
        QCOMPARE(byRule.size(), qsizetype(expected.size()));
        for (const auto& [rule, count] : expected)
            QCOMPARE(byRule[rule].toInt(), count);
        QCOMPARE(summary[QStringLiteral("findings")].toInt(), 25);
        const QJsonObject bySeverity = summary[QStringLiteral("by_severity")].toObject();
        QCOMPARE(bySeverity[QStringLiteral("error")].toInt(), 0);
        QCOMPARE(bySeverity[QStringLiteral("warning")].toInt(), 25);

        // Every finding names its rule, severity, key, namespace, message and fix; a binary key is escaped.
        bool sawBinary = false;
        for (const QJsonValue& value : report[QStringLiteral("findings")].toArray()) {
            const QJsonObject finding = value.toObject();
            for (const char* field : {"rule", "severity", "key", "namespace", "message", "fix"})
                QVERIFY2(finding.contains(QLatin1String(field)), field);
            if (finding.contains(QStringLiteral("key_base64"))) {
                QCOMPARE(QByteArray::fromBase64(finding[QStringLiteral("key_base64")].toString().toLatin1()),
                         QByteArray("bin:\xff", 5));
                sawBinary = true;
            }
        }
        QVERIFY(sawBinary);
    }

    void examplesAreBoundedOrComplete()
    {
        QCOMPARE(lintJson({QStringLiteral("--max-examples"), QStringLiteral("0")})[QStringLiteral("findings")]
                     .toArray()
                     .size(),
                 25);
        const QJsonArray one =
            lintJson({QStringLiteral("--max-examples"), QStringLiteral("1")})[QStringLiteral("findings")].toArray();
        QCOMPARE(one.size(), 8); // one per rule that fired
    }

    void exitCodesFollowFailOn()
    {
        QCOMPARE(lint().exitCode, 0); // no error-level finding
        QCOMPARE(lint({QStringLiteral("--fail-on"), QStringLiteral("warning")}).exitCode, 1);
        QCOMPARE(lint({QStringLiteral("--fail-on"), QStringLiteral("never")}).exitCode, 0);
        QCOMPARE(lint({QStringLiteral("--fail-on"), QStringLiteral("sometimes")}).exitCode, 2);
        QCOMPARE(lint({QStringLiteral("--profile"), QStringLiteral("nosuch")}).exitCode, 2);
        const auto refused = test::runCli({QStringLiteral("lint"), QStringLiteral("-p"), QStringLiteral("1")});
        QCOMPARE(refused.exitCode, 3);
        QVERIFY(refused.out.isEmpty());
    }

    void strictProfileWantsIdsLast()
    {
        const QJsonObject byRule =
            lintJson({QStringLiteral("--profile"), QStringLiteral("strict")})[QStringLiteral("summary")]
                .toObject()[QStringLiteral("by_rule")]
                .toObject();
        QCOMPARE(byRule[QStringLiteral("mid-key-id")].toInt(), 3); // user:<id>:profile
        QVERIFY(!lintJson()[QStringLiteral("summary")].toObject()[QStringLiteral("by_rule")].toObject().contains(
            QStringLiteral("mid-key-id")));
    }

    void textFitsEightyColumns()
    {
        const auto run = lint();
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("25 findings"));
        for (const QByteArray& line : run.out.split('\n'))
            QVERIFY2(QString::fromUtf8(line).size() <= 80, line.constData());
    }
};

QTEST_GUILESS_MAIN(TestLint)
#include "tst_lint.moc"
