// keylens-cli lint against a server seeded with known mistakes: exact counts per rule, exit codes per
// --fail-on, profiles that change outcomes, examples and formats.
#include "CliRunner.h"
#include "PlainClient.h"
#include "TestServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <map>
#include <set>

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
    // `lint --format json` as an ACL user who may run every command but `denied`.
    test::CliRun lintWithout(const QByteArray& denied)
    {
        const QByteArray user = "no" + denied;
        test::PlainClient admin(m_server.port());
        admin.command({"ACL", "SETUSER", user, "on", ">pw", "~*", "+@all", "-" + denied});
        return lint({QStringLiteral("--user"), QString::fromLatin1(user), QStringLiteral("-a"), QStringLiteral("pw"),
                     QStringLiteral("--no-auth-warning"), QStringLiteral("--format"), QStringLiteral("json")});
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

    // Findings grouped by the patterns of their keys: every finding carries its key's pattern (one that matches
    // the key), each (rule, pattern) group counts its keys as the server has them, and the groups add up to the
    // findings.
    void findingsAreGroupedByPattern()
    {
        const QJsonObject report = lintJson();
        const QJsonObject summary = report[QStringLiteral("summary")].toObject();
        for (const QJsonValue& value : report[QStringLiteral("findings")].toArray()) {
            const QJsonObject finding = value.toObject();
            const QString pattern = finding[QStringLiteral("pattern")].toString();
            QVERIFY2(!pattern.isEmpty(), qPrintable(finding[QStringLiteral("key")].toString()));
            // A placeholder stands for one or more characters of the key.
            QString expression;
            qsizetype from = 0;
            for (const QRegularExpressionMatch& placeholder :
                 QRegularExpression(QStringLiteral("<[a-z]+>")).globalMatch(pattern)) {
                expression += QRegularExpression::escape(pattern.mid(from, placeholder.capturedStart() - from)) +
                              QStringLiteral(".+");
                from = placeholder.capturedEnd();
            }
            expression += QRegularExpression::escape(pattern.mid(from));
            QVERIFY2(QRegularExpression(QRegularExpression::anchoredPattern(expression))
                         .match(finding[QStringLiteral("key")].toString())
                         .hasMatch(),
                     qPrintable(pattern + u' ' + finding[QStringLiteral("key")].toString()));
        }
        std::int64_t grouped = 0;
        std::map<std::pair<QString, QString>, std::int64_t> groups;
        std::set<QString> patterns;
        for (const QJsonValue& value : report[QStringLiteral("groups")].toArray()) {
            const QJsonObject group = value.toObject();
            grouped += group[QStringLiteral("keys")].toInteger();
            groups[{group[QStringLiteral("rule")].toString(), group[QStringLiteral("pattern")].toString()}] =
                group[QStringLiteral("keys")].toInteger();
            patterns.insert(group[QStringLiteral("pattern")].toString());
        }
        QCOMPARE(grouped, summary[QStringLiteral("findings")].toInteger());
        QCOMPARE(summary[QStringLiteral("groups")].toInteger(), qint64(groups.size()));
        QCOMPARE(summary[QStringLiteral("patterns")].toInteger(), qint64(patterns.size()));
        const auto keysOf = [&](const char* rule, const char* pattern) {
            return groups[{QString::fromLatin1(rule), QString::fromLatin1(pattern)}];
        };
        QCOMPARE(keysOf("delimiter", "user_<int>_profile"), qint64(4));
        QCOMPARE(keysOf("uppercase", "User:<int>"), qint64(5));
        // The server's own count of session keys without a TTL, against the missing-ttl groups under session:.
        test::PlainClient truth(m_server.port());
        qint64 persistentSessions = 0;
        for (const QByteArray& key : truth.allKeys("session:*"))
            persistentSessions += truth.integer({"TTL", key}) == -1 ? 1 : 0;
        qint64 flaggedSessions = 0;
        for (const auto& [group, keys] : groups)
            flaggedSessions +=
                group.first == QStringLiteral("missing-ttl") && group.second.startsWith(QStringLiteral("session:"))
                    ? keys
                    : 0;
        QCOMPARE(flaggedSessions, persistentSessions);
        // The text report says it too, and lists a rule's patterns.
        const test::CliRun text = lint();
        QVERIFY2(text.out.contains(QByteArray(" in " + QByteArray::number(qulonglong(patterns.size())) + " patterns")),
                 text.out.constData());
        QVERIFY2(text.out.contains("    user_<int>_profile  4 keys"), text.out.constData());
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

    void sarifParsesBackWithEveryFinding()
    {
        const auto run = lint({QStringLiteral("--format"), QStringLiteral("sarif"), QStringLiteral("--max-examples"),
                               QStringLiteral("0")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject sarif = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(sarif[QStringLiteral("version")].toString(), QStringLiteral("2.1.0"));
        QVERIFY(sarif[QStringLiteral("$schema")].toString().contains(QStringLiteral("sarif-schema-2.1.0")));
        const QJsonArray runs = sarif[QStringLiteral("runs")].toArray();
        QCOMPARE(runs.size(), 1);
        const QJsonObject theRun = runs[0].toObject();
        const QJsonObject driver = theRun[QStringLiteral("tool")].toObject()[QStringLiteral("driver")].toObject();
        QCOMPARE(driver[QStringLiteral("name")].toString(), QStringLiteral("keylens"));
        // Each result points at a rule the driver declares, by id and index, and at its key.
        const QJsonArray rules = driver[QStringLiteral("rules")].toArray();
        std::map<QString, int> byRule;
        const QJsonArray results = theRun[QStringLiteral("results")].toArray();
        for (const QJsonValue& value : results) {
            const QJsonObject result = value.toObject();
            const QString rule = result[QStringLiteral("ruleId")].toString();
            const int index = result[QStringLiteral("ruleIndex")].toInt(-1);
            QVERIFY(index >= 0 && index < rules.size());
            QCOMPARE(rules[index].toObject()[QStringLiteral("id")].toString(), rule);
            QVERIFY(!result[QStringLiteral("message")].toObject()[QStringLiteral("text")].toString().isEmpty());
            const QStringList levels = {QStringLiteral("error"), QStringLiteral("warning"), QStringLiteral("note")};
            QVERIFY(levels.contains(result[QStringLiteral("level")].toString()));
            const QJsonObject location = result[QStringLiteral("locations")]
                                             .toArray()[0]
                                             .toObject()[QStringLiteral("logicalLocations")]
                                             .toArray()[0]
                                             .toObject();
            QCOMPARE(location[QStringLiteral("kind")].toString(), QStringLiteral("resource"));
            QVERIFY(!location[QStringLiteral("fullyQualifiedName")].toString().isEmpty());
            ++byRule[rule];
        }
        QCOMPARE(results.size(), 25);
        const QJsonObject json = lintJson()[QStringLiteral("summary")].toObject()[QStringLiteral("by_rule")].toObject();
        for (const auto& [rule, count] : byRule)
            QCOMPARE(count, json[rule].toInt());
    }

    void junitHasOneTestCasePerRule()
    {
        const auto run = lint({QStringLiteral("--format"), QStringLiteral("junit"), QStringLiteral("--fail-on"),
                               QStringLiteral("warning")});
        QCOMPARE(run.exitCode, 1);
        QXmlStreamReader xml(run.out);
        std::map<QString, bool> failed; // test case -> has a <failure>
        QString current;
        int suites = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == QStringLiteral("testsuite"))
                ++suites;
            if (xml.name() == QStringLiteral("testcase")) {
                current = xml.attributes().value(QStringLiteral("name")).toString();
                failed[current] = false;
            }
            if (xml.name() == QStringLiteral("failure"))
                failed[current] = true;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(suites >= 1);
        QVERIFY(failed.size() >= 20); // every rule of the catalogue, fired or not
        const QJsonObject byRule =
            lintJson()[QStringLiteral("summary")].toObject()[QStringLiteral("by_rule")].toObject();
        for (const auto& [name, hasFailure] : failed)
            QCOMPARE(hasFailure, byRule.contains(name));
    }

    void profileFilesChangeTheVerdict()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("acme.json"));
        QFile file(good);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({ "rules": { "uppercase": false, "missing-ttl": { "severity": "error" } },
                        "namespaces": { "ignore": ["user_*"] } })");
        file.close();
        const QJsonObject report = lintJson({QStringLiteral("--profile"), good});
        QCOMPARE(report[QStringLiteral("profile")].toString(), QStringLiteral("acme"));
        const QJsonObject summary = report[QStringLiteral("summary")].toObject();
        const QJsonObject byRule = summary[QStringLiteral("by_rule")].toObject();
        QVERIFY(!byRule.contains(QStringLiteral("uppercase")));
        QVERIFY(!byRule.contains(QStringLiteral("delimiter"))); // user_<n>_profile is ignored
        QCOMPARE(byRule[QStringLiteral("missing-ttl")].toInt(), 6);
        QCOMPARE(summary[QStringLiteral("by_severity")].toObject()[QStringLiteral("error")].toInt(), 6);
        QCOMPARE(lint({QStringLiteral("--profile"), good}).exitCode, 1); // an error now

        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile badFile(bad);
        QVERIFY(badFile.open(QIODevice::WriteOnly));
        badFile.write("{\n  \"rules\": {\n    \"uppercase\": { \"severity\": \"high\" }\n  }\n}\n");
        badFile.close();
        const auto refused = lint({QStringLiteral("--profile"), bad});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(refused.out.isEmpty());
        QVERIFY2(refused.err.contains("bad.json:3: rules.uppercase.severity"), refused.err.constData());
    }

    void outputFileHoldsTheReport()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lint.sarif"));
        const auto run = lint({QStringLiteral("--format"), QStringLiteral("sarif"), QStringLiteral("--output"), path});
        QCOMPARE(run.exitCode, 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object()[QStringLiteral("version")].toString(),
                 QStringLiteral("2.1.0"));
    }

    // MEMORY USAGE denied: the big keys are still found, by their lengths.
    void bigKeysWithoutMemoryUsage()
    {
        const auto run = lintWithout("memory");
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report[QStringLiteral("summary")]
                     .toObject()[QStringLiteral("by_rule")]
                     .toObject()[QStringLiteral("big-string")]
                     .toInt(),
                 1);
        QVERIFY(QJsonDocument(report[QStringLiteral("notices")].toArray()).toJson().contains("MEMORY USAGE"));
    }

    // STRLEN denied: the big string cannot be measured; the report says so, and the other rules stand.
    void bigKeysWithLengthCommandsDenied()
    {
        const auto run = lintWithout("strlen");
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        const QJsonObject byRule = report[QStringLiteral("summary")].toObject()[QStringLiteral("by_rule")].toObject();
        QCOMPARE(byRule[QStringLiteral("uppercase")].toInt(), 5);
        QCOMPARE(byRule[QStringLiteral("big-string")].toInt(), 0); // unknown, not small: said in a notice
        const QByteArray notices = QJsonDocument(report[QStringLiteral("notices")].toArray()).toJson();
        QVERIFY2(notices.contains("big-string and big-collection were not checked on 1 of 1 keys"),
                 notices.constData());
    }

    // Values read for the evidence of what keys are for: pickled values without a TTL are a cache's. A user who may
    // not run GETRANGE gets a notice that says so (not silence); one who may not run OBJECT has no idle times that
    // reading could reset, so --access does not stop the values being read.
    void valueEvidenceIsReadOrItsAbsenceSaid()
    {
        test::PlainClient admin(m_server.port());
        QCOMPARE(admin.command({"SELECT", "1"}), QByteArray("OK"));
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 12; ++i)
            commands.push_back({"SET", "blob:" + QByteArray::number(1000 + i),
                                QByteArray("\x80\x05\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94.", 14)});
        QCOMPARE(admin.pipeline(commands), std::size_t(0));
        const auto missingTtl = [](const QJsonObject& report) {
            return report[QStringLiteral("summary")]
                .toObject()[QStringLiteral("by_rule")]
                .toObject()[QStringLiteral("missing-ttl")]
                .toInt();
        };
        const auto notices = [](const QJsonObject& report) {
            return QJsonDocument(report[QStringLiteral("notices")].toArray()).toJson();
        };
        const auto lintAs = [&](const QByteArray& denied, const QStringList& extra) {
            const QByteArray user = "no" + denied;
            admin.command({"ACL", "SETUSER", user, "on", ">pw", "~*", "+@all", "-" + denied});
            const test::CliRun run = lint(
                QStringList{QStringLiteral("-n"), QStringLiteral("1"), QStringLiteral("--user"),
                            QString::fromLatin1(user), QStringLiteral("-a"), QStringLiteral("pw"),
                            QStringLiteral("--no-auth-warning"), QStringLiteral("--format"), QStringLiteral("json")} +
                extra);
            return QJsonDocument::fromJson(run.out).object();
        };
        const QJsonObject plain = lintJson({QStringLiteral("-n"), QStringLiteral("1")});
        QCOMPARE(missingTtl(plain), 12);

        const QJsonObject noGetrange = lintAs("getrange", {});
        QCOMPARE(missingTtl(noGetrange), 0);
        QVERIFY2(notices(noGetrange).contains("refused GETRANGE"), notices(noGetrange).constData());

        const QJsonObject noObject = lintAs("object", {QStringLiteral("--access")});
        QVERIFY2(!notices(noObject).contains("reset the idle times"), notices(noObject).constData());
        QCOMPARE(missingTtl(noObject), 12);
        QCOMPARE(admin.command({"FLUSHDB"}), QByteArray("OK"));
    }

    // A set without a TTL whose members are the names of keys that expire (a tag's set of cache entries) is an
    // index that outlives them: missing-ttl, with the evidence of its members and a fix that is no bare EXPIRE. Sets
    // of other members (ids, the names of keys kept for good) are not. From the server (a few members of two sets a
    // pattern, SRANDMEMBER), from the RDB file it saves (their first members, kept as it is read), and not at all where
    // the user may not read them (a notice says so).
    void anIndexOfExpiringKeysIsFlaggedFromTheServerAndItsFile()
    {
        test::PlainClient admin(m_server.port());
        QCOMPARE(admin.command({"SELECT", "2"}), QByteArray("OK"));
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 0; i < 36; ++i)
            commands.push_back({"SET", "shop:page:" + QByteArray::number(i), "<html>", "EX", "3600"});
        for (int t = 0; t < 12; ++t)
            commands.push_back({"SADD", "shop:tag:" + QByteArray::number(t), "shop:page:" + QByteArray::number(3 * t),
                                "shop:page:" + QByteArray::number(3 * t + 1),
                                "shop:page:" + QByteArray::number(3 * t + 2)});
        for (int i = 0; i < 12; ++i)
            commands.push_back({"SET", "product:" + QByteArray::number(i), "mug"});
        for (int u = 0; u < 12; ++u) {
            commands.push_back({"SADD", "member:" + QByteArray::number(u) + ":followers", QByteArray::number(100 + u),
                                QByteArray::number(200 + u)});
            commands.push_back({"SADD", "member:" + QByteArray::number(u) + ":wishlist",
                                "product:" + QByteArray::number(u), "product:" + QByteArray::number((u + 1) % 12)});
        }
        QCOMPARE(admin.pipeline(commands), std::size_t(0));
        const auto missingTtl = [](const QJsonObject& report) {
            std::map<QByteArray, QJsonObject> flagged;
            for (const QJsonValue& value : report[QStringLiteral("findings")].toArray()) {
                const QJsonObject finding = value.toObject();
                if (finding[QStringLiteral("rule")].toString() == QLatin1String("missing-ttl"))
                    flagged[finding[QStringLiteral("key")].toString().toUtf8()] = finding;
            }
            return flagged;
        };
        const auto checkFlagged = [&](const QJsonObject& report) {
            const std::map<QByteArray, QJsonObject> flagged = missingTtl(report);
            QCOMPARE(flagged.size(), std::size_t(12));
            for (int t = 0; t < 12; ++t) {
                const auto found = flagged.find("shop:tag:" + QByteArray::number(t));
                QVERIFY(found != flagged.end());
                const QJsonArray evidence = found->second[QStringLiteral("evidence")].toArray();
                QVERIFY2(!evidence.isEmpty() && evidence.first().toString().startsWith(QLatin1String(
                                                    "index: 6 of 6 sampled members name keys that expire")),
                         QJsonDocument(evidence).toJson().constData());
                const QString fix = found->second[QStringLiteral("fix")].toString();
                QVERIFY2(fix.startsWith(QLatin1String("Prune the members whose keys are gone")), qPrintable(fix));
            }
        };
        const QStringList json{QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--max-examples"),
                               QStringLiteral("0")};
        const test::CliRun live = lint(QStringList{QStringLiteral("-n"), QStringLiteral("2")} + json);
        checkFlagged(QJsonDocument::fromJson(live.out).object());

        // A user who may not run SRANDMEMBER: no index judged, and a notice that says why.
        admin.command({"ACL", "SETUSER", "nosrandmember", "on", ">pw", "~*", "+@all", "-srandmember"});
        const test::CliRun denied =
            lint(QStringList{QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral("--user"),
                             QStringLiteral("nosrandmember"), QStringLiteral("-a"), QStringLiteral("pw"),
                             QStringLiteral("--no-auth-warning")} +
                 json);
        const QJsonObject deniedReport = QJsonDocument::fromJson(denied.out).object();
        QCOMPARE(missingTtl(deniedReport).size(), std::size_t(0));
        const QByteArray notices = QJsonDocument(deniedReport[QStringLiteral("notices")].toArray()).toJson();
        QVERIFY2(notices.contains("refused SRANDMEMBER for "), notices.constData());

        // The same from the file the server saves.
        QCOMPARE(admin.command({"SAVE"}), QByteArray("OK"));
        const std::vector<QByteArray> dir = admin.elements({"CONFIG", "GET", "dir"});
        const std::vector<QByteArray> file = admin.elements({"CONFIG", "GET", "dbfilename"});
        QVERIFY(dir.size() == 2 && file.size() == 2);
        const test::CliRun fromFile = test::runCli(QStringList{QStringLiteral("lint"), QStringLiteral("--rdb"),
                                                               QString::fromUtf8(dir.back() + '/' + file.back()),
                                                               QStringLiteral("-n"), QStringLiteral("2")} +
                                                   json);
        QVERIFY2(fromFile.exitCode == 0 || fromFile.exitCode == 1, fromFile.err.constData());
        checkFlagged(QJsonDocument::fromJson(fromFile.out).object());
        QCOMPARE(admin.command({"FLUSHDB"}), QByteArray("OK"));
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
