// Keylens on a keyspace that real libraries wrote (tests/fixtures/libraries: unmodified Celery, RQ, Django, Flask,
// dogpile.cache, Sidekiq, Rails, Rack::Attack, BullMQ, Bull, Bee-Queue, node-resque, express-session,
// express-rate-limit, rate-limiter-flexible, Keyv, Redlock, Socket.IO… driven as apps drive them). The truth is the
// fixture's owners.tsv (which library wrote each key, in what role, as its driver says) and the server itself (each
// key's TTL); the figures checked are issue 40's floors, and issue 62's: they hold with the library catalogue and
// without it (--no-catalogue), where the keys' own evidence alone judges them and no library is named.
#include "CliRunner.h"
#include "FixtureOwners.h"
#include "JsonReport.h"
#include "PlainClient.h"
#include "ScanHelper.h"
#include "TestServer.h"
#include "lint/LibraryLayouts.h"
#include "patterns/PatternTree.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>
#include <set>

using namespace keylens;
using test::parseJson;

namespace {

const QString Fixture = QStringLiteral(KEYLENS_LIBRARY_FIXTURE);

using test::Owner;
using test::percent;

} // namespace

class TestRealLibraries : public QObject
{
    Q_OBJECT

private:
    demo::RedisServerProcess m_server;
    std::map<QByteArray, Owner> m_owners;
    std::set<QByteArray> m_withoutTtl; // asked of the server after the restore
    QJsonObject m_lint;                // with the catalogue
    QJsonObject m_lintByEvidence;      // without it: --no-catalogue
    QJsonObject m_lintOfFile;          // without it, of the RDB file the server saved: the same evidence from a file

    const QJsonObject& lintOf(bool catalogue) const { return catalogue ? m_lint : m_lintByEvidence; }

    QString port() const { return QString::number(m_server.port()); }

private Q_SLOTS:
    void initTestCase()
    {
        KEYLENS_START_SERVER(m_server);
        const test::CliRun restored = test::runCli(
            {QStringLiteral("restore"), Fixture + QStringLiteral("/libraries.klb"), QStringLiteral("-p"), port()});
        QVERIFY2(restored.exitCode == 0, restored.err.constData());
        m_owners = test::readOwners(Fixture + QStringLiteral("/owners.tsv"));
        QVERIFY(m_owners.size() > 10000);
        test::PlainClient client(m_server.port());
        for (const auto& [key, owner] : m_owners)
            if (client.command({"PTTL", key}) == "-1")
                m_withoutTtl.insert(key);
        // Both at once after the restore, before the shortest TTLs run out.
        for (const bool catalogue : {true, false}) {
            QStringList arguments{QStringLiteral("lint"),     QStringLiteral("-p"),   port(),
                                  QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--max-examples"),
                                  QStringLiteral("0")};
            if (!catalogue)
                arguments << QStringLiteral("--no-catalogue");
            const test::CliRun lint = test::runCli(arguments);
            QVERIFY2(lint.exitCode == 0 || lint.exitCode == 1, lint.err.constData());
            (catalogue ? m_lint : m_lintByEvidence) = parseJson(lint.out);
            QVERIFY(!lintOf(catalogue).isEmpty());
        }
        // TTLs as of the save (--ttl-from saved): the same keys, with the TTLs they had.
        QCOMPARE(client.command({"SAVE"}), QByteArray("OK"));
        const std::vector<QByteArray> dir = client.elements({"CONFIG", "GET", "dir"});
        QVERIFY(dir.size() == 2);
        const test::CliRun fromFile =
            test::runCli({QStringLiteral("lint"), QStringLiteral("--rdb"),
                          QString::fromUtf8(dir.back()) + QStringLiteral("/dump.rdb"), QStringLiteral("--format"),
                          QStringLiteral("json"), QStringLiteral("--max-examples"), QStringLiteral("0"),
                          QStringLiteral("--no-catalogue")});
        QVERIFY2(fromFile.exitCode == 0 || fromFile.exitCode == 1, fromFile.err.constData());
        m_lintOfFile = parseJson(fromFile.out);
        QVERIFY(!m_lintOfFile.isEmpty());
    }

    // Every library of the catalogue whose keys are in the fixture is named, and no other; no library claims more keys
    // than it wrote. Redlock's and redis-py's locks are named by the application and hold random tokens: no layout
    // of their own, so a role (lock) and no name.
    void everyLibraryIsNamedAndNoneInvented()
    {
        std::map<QByteArray, std::size_t> written;
        for (const auto& [key, owner] : m_owners)
            ++written[owner.library];
        const test::CliRun scan = test::runCli(
            {QStringLiteral("scan"), QStringLiteral("-p"), port(), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(scan.exitCode, 0);
        std::set<QByteArray> named;
        for (const QJsonValue& value : parseJson(scan.out).value(QStringLiteral("libraries")).toArray()) {
            const QJsonObject library = value.toObject();
            const QByteArray id = library.value(QStringLiteral("library")).toString().toUtf8();
            named.insert(id);
            QVERIFY2(written.count(id), QByteArray("invented: " + id).constData());
            const qint64 claimed = library.value(QStringLiteral("keys")).toInteger();
            QVERIFY2(std::size_t(claimed) <= written[id],
                     QByteArray(id + " claims " + QByteArray::number(claimed) + " keys of " +
                                QByteArray::number(qulonglong(written[id])))
                         .constData());
        }
        for (const auto& [library, keys] : written)
            QVERIFY2(named.count(library) || !lint::findLibrary(library),
                     QByteArray("not named: " + library + " (" + QByteArray::number(qulonglong(keys)) + " keys)")
                         .constData());
    }

    // Without the catalogue no library is named: not in the libraries, namespaces or patterns of a scan, nor in a
    // lint's groups or notices.
    void noLibraryIsNamedWithoutTheCatalogue()
    {
        const test::CliRun scan =
            test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), port(), QStringLiteral("--format"),
                          QStringLiteral("json"), QStringLiteral("--patterns"), QStringLiteral("--no-catalogue")});
        QCOMPARE(scan.exitCode, 0);
        QVERIFY2(!scan.out.contains("\"library\""), "a library named in the scan");
        for (const QJsonValue& value : m_lintByEvidence.value(QStringLiteral("groups")).toArray())
            QVERIFY(value.toObject().value(QStringLiteral("library")).isNull());
        for (const QJsonValue& notice : m_lintByEvidence.value(QStringLiteral("notices")).toArray())
            QVERIFY2(!notice.toString().contains(QStringLiteral("recognised library")), qPrintable(notice.toString()));
    }

    // The pattern view's top level fits on a page, and the patterns partition the keys.
    void patternsFitOnAPage()
    {
        keyspace::Keyspace store;
        scan::ScanOptions options;
        options.connection = m_server.connectionOptions();
        QVERIFY(test::scanInto(store, options).finished);
        // Rate-limit windows of a minute may have ended since the restore: the server says how many keys are left.
        const qint64 dbsize = test::PlainClient(m_server.port()).command({"DBSIZE"}).toLongLong();
        QVERIFY2(qint64(store.keyCount()) >= dbsize && store.keyCount() <= m_owners.size(),
                 QByteArray::number(qulonglong(store.keyCount())).constData());
        const patterns::PatternTree tree(store);
        const std::size_t firstLevel = tree.children(patterns::PatternTree::Root).size();
        std::size_t roots = 0;
        store.forEachChild(keyspace::Keyspace::root(), [&](keyspace::NodeId) { ++roots; });
        qInfo("%zu first-level patterns where the tree has %zu roots; %zu patterns in all", firstLevel, roots,
              tree.size());
        QVERIFY2(firstLevel <= 80, QByteArray::number(qulonglong(firstLevel)).constData());
        std::uint64_t owned = 0;
        for (patterns::PatternTree::PatternId pattern = 1; pattern < tree.size(); ++pattern)
            owned += tree.ownKeys(pattern);
        QCOMPARE(owned, std::uint64_t(m_owners.size()));
    }

    void findingsHoldOnLibraryKeys_data()
    {
        QTest::addColumn<bool>("catalogue");
        QTest::addColumn<bool>("file");
        QTest::newRow("with the catalogue") << true << false;
        QTest::newRow("by evidence alone") << false << false;
        QTest::newRow("by evidence alone, of an RDB file") << false << true;
    }

    // Findings a person can read: few (rule, pattern) groups, and the rules right on library keys.
    void findingsHoldOnLibraryKeys()
    {
        QFETCH(bool, catalogue);
        QFETCH(bool, file);
        const QJsonObject& lint = file ? m_lintOfFile : lintOf(catalogue);
        const QJsonObject summary = lint.value(QStringLiteral("summary")).toObject();
        const qint64 groups = summary.value(QStringLiteral("groups")).toInteger();
        qInfo("%lld findings in %lld patterns, %lld (rule, pattern) groups",
              summary.value(QStringLiteral("findings")).toInteger(),
              summary.value(QStringLiteral("patterns")).toInteger(), groups);
        std::map<QByteArray, std::set<QByteArray>> byRule;
        for (const QJsonValue& value : lint.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject finding = value.toObject();
            byRule[finding.value(QStringLiteral("rule")).toString().toUtf8()].insert(test::keyOfFinding(finding));
        }
        // Caches, sessions and locks without a TTL are missing-ttl; a queue's or a broker's keys (at most one in a
        // hundred without the catalogue) are not.
        std::size_t shouldExpire = 0, flagged = 0, queueKeys = 0, queueFlagged = 0;
        for (const auto& [key, owner] : m_owners) {
            const bool missing = byRule["missing-ttl"].count(key) > 0;
            if (owner.role == "queue" || owner.role == "pub/sub" || owner.role == "scheduler") {
                ++queueKeys;
                queueFlagged += missing ? 1 : 0;
            }
            if ((owner.role == "cache" || owner.role == "session" || owner.role == "lock") && m_withoutTtl.count(key)) {
                ++shouldExpire;
                flagged += missing ? 1 : 0;
            }
        }
        qInfo("missing-ttl on %zu of %zu cache, session and lock keys without a TTL (%.1f%%); on %zu of %zu queue, "
              "broker and scheduler keys (%.2f%%)",
              flagged, shouldExpire, percent(flagged, shouldExpire), queueFlagged, queueKeys,
              percent(queueFlagged, queueKeys));
        if (catalogue)
            QCOMPARE(queueFlagged, std::size_t(0));
        QVERIFY(percent(queueFlagged, queueKeys) <= 1.0);
        QVERIFY(percent(flagged, shouldExpire) >= 90.0);
        // Each of them says what it rests on.
        for (const QJsonValue& value : lint.value(QStringLiteral("findings")).toArray())
            QVERIFY(!value.toObject().value(QStringLiteral("evidence")).toArray().isEmpty());
        // id-first only where a key starts with an id.
        std::size_t startWithWord = 0, idFirst = 0;
        for (const auto& [key, owner] : m_owners) {
            const qsizetype cut =
                std::find_if(key.begin(), key.end(), [](char c) { return !std::isalnum(std::uint8_t(c)); }) -
                key.begin();
            const QByteArray first = key.first(cut);
            if (!first.isEmpty() && std::isalpha(std::uint8_t(first.front()))) {
                ++startWithWord;
                idFirst += byRule["id-first"].count(key);
            }
        }
        qInfo("id-first on %zu of %zu keys that start with a word", idFirst, startWithWord);
        QVERIFY(percent(idFirst, startWithWord) <= 1.0);
        // Without the catalogue the naming rules judge the libraries' keys too: each library's own convention is one
        // finding per family and rule, so the floor holds both ways.
        QVERIFY2(groups <= 150, QByteArray::number(groups).constData());
    }

    // Where the server evicts any key (allkeys-*), a key without a TTL goes under memory pressure: missing-ttl is
    // information there, on the same keys.
    void missingTtlIsInformationWhereAllKeysAreEvicted()
    {
        test::PlainClient client(m_server.port());
        QCOMPARE(client.command({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}), QByteArray("OK"));
        const test::CliRun lint =
            test::runCli({QStringLiteral("lint"), QStringLiteral("-p"), port(), QStringLiteral("--format"),
                          QStringLiteral("json"), QStringLiteral("--max-examples"), QStringLiteral("0")});
        QCOMPARE(client.command({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), QByteArray("OK"));
        std::size_t before = 0, after = 0, warnings = 0;
        for (const QJsonValue& value : m_lint.value(QStringLiteral("findings")).toArray())
            before += value.toObject().value(QStringLiteral("rule")).toString() == QLatin1String("missing-ttl");
        for (const QJsonValue& value : parseJson(lint.out).value(QStringLiteral("findings")).toArray()) {
            const QJsonObject finding = value.toObject();
            if (finding.value(QStringLiteral("rule")).toString() != QLatin1String("missing-ttl"))
                continue;
            ++after;
            warnings += finding.value(QStringLiteral("severity")).toString() != QLatin1String("info");
        }
        QVERIFY(before > 0);
        QCOMPARE(after, before);
        QCOMPARE(warnings, std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestRealLibraries)
#include "tst_reallibraries.moc"
