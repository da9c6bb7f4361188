// Bulk actions, backups and restores against a real redis-server, checked by a plain hiredis client: every type
// deleted and restored byte for byte (DUMP before and after) with its TTL, a cancel and a kill mid-delete, a
// read-only connection that sends nothing, and the CLI's preview, --dry-run, confirmation and exit codes.
#include "CliRunner.h"
#include "Deflate.h"
#include "PlainClient.h"
#include "Sanitizers.h"
#include "TestServer.h"
#include "edit/BackupFile.h"
#include "edit/BulkAction.h"
#include "edit/KeySelection.h"
#include "edit/Restore.h"
#include "redis/Connection.h"

#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <random>
#include <set>
#include <sys/resource.h>
#include <thread>

using namespace keylens;
using test::builtWithAddressSanitizer;
using test::PlainClient;

namespace {

struct Truth
{
    std::vector<QByteArray> content; // the type and every byte of the value (PlainClient::content)
    QByteArray dump;
    long long pttl = -1;
};

// Content, DUMP and PTTL of every key matching `match`, asked one key at a time by the plain client.
std::map<QByteArray, Truth> truthOf(PlainClient& client, const QByteArray& match = "*")
{
    std::map<QByteArray, Truth> truth;
    for (const QByteArray& key : client.allKeys(match))
        truth[key] = {client.content(key), client.command({"DUMP", key}), client.integer({"PTTL", key})};
    return truth;
}

// `count` keys of every type under `prefix`, a third with a TTL, some with binary bytes in name and value.
void fillEveryType(quint16 port, int count, const QByteArray& prefix)
{
    std::vector<std::vector<QByteArray>> commands;
    for (int i = 0; i < count; ++i) {
        const QByteArray n = QByteArray::number(i);
        const QByteArray binary = QByteArray("\xff\x00\xfe", 3) + n;
        QByteArray key;
        switch (i % 6) {
        case 0:
            key = prefix + "string:" + n + (i % 12 == 0 ? binary : QByteArray());
            commands.push_back({"SET", key, "value " + n + binary});
            break;
        case 1:
            key = prefix + "hash:" + n;
            commands.push_back({"HSET", key, "name", "n" + n, "blob", binary});
            break;
        case 2:
            key = prefix + "list:" + n;
            commands.push_back({"RPUSH", key, "a", binary, "c" + n});
            break;
        case 3:
            key = prefix + "set:" + n;
            commands.push_back({"SADD", key, "x", "y" + n, binary});
            break;
        case 4:
            key = prefix + "zset:" + n;
            commands.push_back({"ZADD", key, "1.5", "one", "-2", binary, n, "n"});
            break;
        case 5:
            key = prefix + "stream:" + n;
            commands.push_back({"XADD", key, "*", "field", binary});
            break;
        }
        if (i % 3 == 0)
            commands.push_back({"PEXPIRE", key, QByteArray::number(3'600'000 + i)});
    }
    PlainClient client(port);
    QCOMPARE(client.pipeline(commands), std::size_t(0));
}

std::vector<QByteArray> keysOf(const std::map<QByteArray, Truth>& truth)
{
    std::vector<QByteArray> keys;
    for (const auto& entry : truth)
        keys.push_back(entry.first);
    return keys;
}

// Every key of `before` is back with the same type and value bytes and a PTTL that lost no more than the test took.
// (Not the same DUMP: a set's hash table may iterate in another order once rebuilt.)
void compareRestored(const std::map<QByteArray, Truth>& before, const std::map<QByteArray, Truth>& after)
{
    QCOMPARE(after.size(), before.size());
    for (const auto& [key, truth] : before) {
        const auto found = after.find(key);
        QVERIFY2(found != after.end(), key.constData());
        QVERIFY2(found->second.content == truth.content, key.constData());
        if (truth.pttl < 0) {
            QCOMPARE(found->second.pttl, -1LL);
        } else {
            QVERIFY(found->second.pttl > 0);
            QVERIFY(found->second.pttl <= truth.pttl);
            QVERIFY(truth.pttl - found->second.pttl < 60'000);
        }
    }
}

std::vector<edit::BackupRecord> readBackup(const QString& path, bool* complete)
{
    edit::BackupReader reader;
    [&] { QVERIFY(reader.open(path).ok()); }();
    std::vector<edit::BackupRecord> records;
    while (true) {
        redis::Result<std::optional<edit::BackupRecord>> record = reader.next();
        if (!record || !record->has_value())
            break;
        records.push_back(**record);
    }
    *complete = reader.complete();
    return records;
}

// A backup file written by hand, format version 2 as docs/backup-format.md gives it, gzipped by zlib itself: the
// reader is checked against the documented layout, not against our writer.
QByteArray handMadeBackup(const std::vector<QByteArray>& records, quint64 planned, bool endRecord)
{
    const auto little = [](auto value) {
        QByteArray bytes(int(sizeof(value)), '\0');
        for (std::size_t i = 0; i < sizeof(value); ++i)
            bytes[int(i)] = char((quint64(value) >> (8 * i)) & 0xff);
        return bytes;
    };
    QByteArray plain = "KEYLENS-BACKUP\n";
    plain += char(2);
    plain += little(qint64(1'700'000'000'000));
    plain += little(quint32(4)) + "test";
    plain += little(quint32(6)) + "delete";
    plain += little(quint64(planned));
    for (const QByteArray& record : records)
        plain += record;
    if (endRecord)
        plain += 'E' + little(quint64(records.size()));
    return test::deflateBytes(plain, 15 + 16);
}

// One key record: the tag, the key, the PTTL and the payload, with lengths that may lie.
QByteArray keyRecord(const QByteArray& key, const QByteArray& payload, quint32 keyLength, quint32 payloadLength)
{
    const auto little32 = [](quint32 value) {
        QByteArray bytes(4, '\0');
        for (int i = 0; i < 4; ++i)
            bytes[i] = char((value >> (8 * i)) & 0xff);
        return bytes;
    };
    return 'K' + little32(keyLength) + key + QByteArray::fromHex("ffffffffffffffff") + little32(payloadLength) +
           payload;
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(out.write(bytes), bytes.size());
}

QByteArray readFile(const QString& path)
{
    QFile in(path);
    return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
}

} // namespace

class TestBulkActions : public QObject
{
    Q_OBJECT

    demo::RedisServerProcess m_server;
    QTemporaryDir m_files;

    QString file(const QString& name) const { return m_files.filePath(name); }
    QStringList cli(const QString& command, const QStringList& rest) const
    {
        return QStringList{command, m_server.uri()} + rest;
    }

private Q_SLOTS:
    void init() { KEYLENS_START_SERVER(m_server); }
    void cleanup() { m_server.stop(); }

    // The round trip: 10,000 keys of every type deleted by the CLI (gentle, with its backup), and put back
    // by `keylens-cli restore`, DUMP for DUMP, TTLs included.
    void deleteAndRestoreTenThousandKeysByteForByte()
    {
        fillEveryType(m_server.port(), 10'000, "bulk:");
        PlainClient client(m_server.port());
        client.command({"SET", "other:keep", "untouched"});
        const std::map<QByteArray, Truth> before = truthOf(client, "bulk:*");
        QCOMPARE(before.size(), std::size_t(10'000));

        const QString backup = file(QStringLiteral("tenk.klb"));
        const test::CliRun deleted =
            test::runCli(cli(QStringLiteral("delete"), {QStringLiteral("--match"), QStringLiteral("bulk:*"),
                                                        QStringLiteral("--backup"), backup, QStringLiteral("--yes")}));
        QVERIFY2(deleted.exitCode == 0, deleted.err.constData());
        QVERIFY2(deleted.err.contains("10,000 keys in 'bulk:*'"), deleted.err.constData());
        QVERIFY2(deleted.out.contains("Deleted 10,000 of 10,000 keys."), deleted.out.constData());
        QCOMPARE(client.allKeys("bulk:*").size(), std::size_t(0));
        QCOMPARE(client.command({"GET", "other:keep"}), QByteArray("untouched"));

        bool complete = false;
        QCOMPARE(readBackup(backup, &complete).size(), std::size_t(10'000));
        QVERIFY(complete);

        const test::CliRun restored = test::runCli({QStringLiteral("restore"), backup, m_server.uri()});
        QVERIFY2(restored.exitCode == 0, restored.err.constData());
        QVERIFY2(restored.out.contains("Restored 10,000 of 10,000 keys."), restored.out.constData());
        compareRestored(before, truthOf(client, "bulk:*"));

        // Restoring again finds every key there, and leaves them: exit 1, with the count.
        const test::CliRun again = test::runCli({QStringLiteral("restore"), backup, m_server.uri()});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.out.contains("10,000 exist already"), again.out.constData());
    }

    // A 16 KB key name, binary bytes in a name, and a 4 MB value go into a backup and come back byte for byte.
    void longBinaryKeysAndBigValuesRoundTrip()
    {
        PlainClient client(m_server.port());
        const QByteArray longKey = "big:" + QByteArray(16 * 1024, 'k');
        const QByteArray binaryKey("big:\x00\xff\r\n", 8);
        QByteArray bigValue(4 * 1024 * 1024, Qt::Uninitialized);
        for (qsizetype i = 0; i < bigValue.size(); ++i)
            bigValue[i] = char((i * 7919) & 0xff);
        client.command({"SET", longKey, "under a long name", "PX", "600000"});
        client.command({"SET", binaryKey, bigValue});
        const std::map<QByteArray, Truth> before = truthOf(client, "big:*");
        QCOMPARE(before.size(), std::size_t(2));
        auto connection = redis::Connection::open(m_server.connectionOptions());
        QVERIFY(connection.ok());
        edit::BulkRequest request;
        request.kind = edit::BulkKind::Delete;
        request.keys = keysOf(before);
        request.backupPath = file(QStringLiteral("big.klb"));
        const edit::BulkSummary summary = edit::runBulkAction(**connection, request);
        QVERIFY2(summary.succeeded(), qPrintable(summary.text()));
        QCOMPARE(client.allKeys("big:*").size(), std::size_t(0));
        edit::BackupReader reader;
        QVERIFY(reader.open(request.backupPath).ok());
        const edit::RestoreSummary restored = edit::restoreBackup(**connection, reader, {});
        QVERIFY2(restored.succeeded(), qPrintable(restored.text()));
        compareRestored(before, truthOf(client, "big:*"));
        QCOMPARE(client.command({"GET", binaryKey}), bigValue);
    }

    // Keys that vanished since the scan are counted as gone, not as failures, and are not in the backup; the
    // preview's check counts them first.
    void vanishedKeysAreCountedAsGone()
    {
        QCOMPARE(test::fillStringKeys(m_server.port(), 100, 0, "v:"), std::size_t(0));
        PlainClient client(m_server.port());
        std::vector<QByteArray> keys = client.allKeys("v:*");
        for (int i = 0; i < 10; ++i)
            client.command({"DEL", keys[std::size_t(i)]});
        auto connection = redis::Connection::open(m_server.connectionOptions());
        QVERIFY(connection.ok());
        edit::KeySelection selection;
        selection.keys = keys;
        selection.types.assign(keys.size(), keyspace::KeyType::String);
        client.command({"DEL", keys[10]});
        client.command({"HSET", keys[10], "f", "now a hash"});
        const redis::Result<edit::SelectionCheck> check =
            edit::checkSinceScan(**connection, selection, scan::ScanSpeed::Full);
        QVERIFY(check.ok());
        QCOMPARE(check->gone, std::uint64_t(10));
        QCOMPARE(check->typeChanged, std::uint64_t(1));
        edit::BulkRequest request;
        request.kind = edit::BulkKind::Delete;
        request.keys = keys;
        request.backupPath = file(QStringLiteral("vanished.klb"));
        const edit::BulkSummary summary = edit::runBulkAction(**connection, request);
        QCOMPARE(summary.done, std::uint64_t(90));
        QCOMPARE(summary.unchanged, std::uint64_t(10));
        QCOMPARE(summary.failed, std::uint64_t(0));
        QCOMPARE(summary.backedUp, std::uint64_t(90));
        QVERIFY(summary.succeeded());
        QVERIFY2(summary.text().contains(QStringLiteral("10 keys were gone already")), qPrintable(summary.text()));
    }

    // An ACL that denies UNLINK: every key fails with the server's words, none is gone, the exit code says so.
    void deniedCommandIsAFailureWithItsReason()
    {
        QCOMPARE(test::fillStringKeys(m_server.port(), 40, 0, "acl:"), std::size_t(0));
        PlainClient admin(m_server.port());
        admin.command({"ACL", "SETUSER", "limited", "on", ">pw", "~*", "+@all", "-unlink"});
        redis::ConnectionOptions options = m_server.connectionOptions();
        options.user = "limited";
        options.password = "pw";
        options.hasPassword = true;
        auto connection = redis::Connection::open(options);
        QVERIFY2(connection.ok(), connection.ok() ? "" : qPrintable(connection.error().message));
        edit::BulkRequest request;
        request.kind = edit::BulkKind::Delete;
        request.keys = admin.allKeys("acl:*");
        request.backupPath = file(QStringLiteral("acl.klb"));
        const edit::BulkSummary summary = edit::runBulkAction(**connection, request);
        QCOMPARE(summary.failed, std::uint64_t(40));
        QCOMPARE(summary.done, std::uint64_t(0));
        QVERIFY(!summary.succeeded());
        QVERIFY2(summary.text().contains(QStringLiteral("NOPERM")), qPrintable(summary.text()));
        QCOMPARE(admin.allKeys("acl:*").size(), std::size_t(40));
    }

    void dryRunChangesNothing()
    {
        fillEveryType(m_server.port(), 600, "dry:");
        PlainClient client(m_server.port());
        const std::map<QByteArray, Truth> before = truthOf(client);
        std::map<QByteArray, long long> callsBefore; // the filling itself sent PEXPIREs, truthOf DUMPs
        for (const char* write : {"unlink", "pexpire", "persist", "renamenx", "dump", "restore"})
            callsBefore[write] = client.commandCalls(write);
        const QList<QStringList> runs = {
            {QStringLiteral("delete"), QStringLiteral("--match"), QStringLiteral("dry:*")},
            {QStringLiteral("expire"), QStringLiteral("--match"), QStringLiteral("dry:*"), QStringLiteral("--ttl"),
             QStringLiteral("5m")},
            {QStringLiteral("expire"), QStringLiteral("--pattern"), QStringLiteral("dry:hash:<int>"),
             QStringLiteral("--persist")},
            {QStringLiteral("rename"), QStringLiteral("--match"), QStringLiteral("dry:*"), QStringLiteral("--to"),
             QStringLiteral("wet:")},
        };
        for (QStringList run : runs) {
            run << QStringLiteral("--dry-run");
            if (run.first() != QLatin1String("expire"))
                run << QStringLiteral("--backup") << file(QStringLiteral("dry.klb"));
            const test::CliRun dry = test::runCli(cli(run.first(), run.mid(1)));
            QVERIFY2(dry.exitCode == 0, dry.err.constData());
            QVERIFY2(dry.err.contains("Dry run: nothing was changed."), dry.err.constData());
            QVERIFY2(dry.err.contains("Changed since the scan: 0 of"), dry.err.constData());
        }
        for (const char* write : {"unlink", "pexpire", "persist", "renamenx", "dump", "restore"})
            QCOMPARE(client.commandCalls(write), callsBefore[write]);
        QVERIFY(!QFile::exists(file(QStringLiteral("dry.klb"))));
        QCOMPARE(truthOf(client).size(), before.size());
        for (const auto& [key, truth] : truthOf(client)) {
            QCOMPARE(truth.content, before.at(key).content);
            QCOMPARE(truth.dump, before.at(key).dump); // not even re-encoded
            QCOMPARE(truth.pttl < 0, before.at(key).pttl < 0);
        }
    }

    void previewNeedsConfirmation()
    {
        QCOMPARE(test::fillStringKeys(m_server.port(), 50, 0, "ask:"), std::size_t(0));
        // No terminal and no --yes: not confirmed, exit 4, nothing sent.
        const test::CliRun asked =
            test::runCli(cli(QStringLiteral("delete"), {QStringLiteral("--match"), QStringLiteral("ask:*")}));
        QCOMPARE(asked.exitCode, 4);
        QVERIFY2(asked.err.contains("50 keys in 'ask:*'"), asked.err.constData());
        QVERIFY2(asked.err.contains("pass --yes"), asked.err.constData());
        PlainClient client(m_server.port());
        QCOMPARE(client.allKeys("ask:*").size(), std::size_t(50));
        QCOMPARE(client.commandCalls("unlink"), 0LL);
        QCOMPARE(client.commandCalls("dump"), 0LL);
        // Bad arguments are usage errors that change nothing either.
        QCOMPARE(test::runCli(cli(QStringLiteral("delete"), {})).exitCode, 2);
        QCOMPARE(test::runCli(cli(QStringLiteral("expire"), {QStringLiteral("--match"), QStringLiteral("ask:*"),
                                                             QStringLiteral("--ttl"), QStringLiteral("soon")}))
                     .exitCode,
                 2);
        QCOMPARE(
            test::runCli(cli(QStringLiteral("rename"), {QStringLiteral("--match"), QStringLiteral("ask:*")})).exitCode,
            2);
        QCOMPARE(client.allKeys("ask:*").size(), std::size_t(50));
    }

    void readOnlyConnectionSendsNothing()
    {
        QCOMPARE(test::fillStringKeys(m_server.port(), 100, 0, "ro:"), std::size_t(0));
        redis::ConnectionOptions options = m_server.connectionOptions();
        options.readOnly = true;
        auto connection = redis::Connection::open(options);
        QVERIFY(connection.ok());
        PlainClient client(m_server.port());
        for (const edit::BulkKind kind :
             {edit::BulkKind::Delete, edit::BulkKind::Expire, edit::BulkKind::Persist, edit::BulkKind::Rename}) {
            edit::BulkRequest request;
            request.kind = kind;
            request.keys = client.allKeys("ro:*");
            request.newKeys = request.keys;
            request.ttlMs = 1000;
            request.backupPath = file(QStringLiteral("ro.klb"));
            const edit::BulkSummary summary = edit::runBulkAction(**connection, request);
            QVERIFY(summary.stoppedBy);
            QCOMPARE(summary.stoppedBy->kind, redis::ErrorKind::ReadOnly);
            QCOMPARE(summary.notAttempted, std::uint64_t(100));
            QCOMPARE(summary.done, std::uint64_t(0));
        }
        for (const char* command : {"unlink", "pexpire", "persist", "renamenx", "dump", "pttl"})
            QCOMPARE(client.commandCalls(command), 0LL);
        QVERIFY(!QFile::exists(file(QStringLiteral("ro.klb"))));
        // The CLI's --read-only says so and exits 1, with every key still there.
        const test::CliRun refused =
            test::runCli(cli(QStringLiteral("delete"),
                             {QStringLiteral("--match"), QStringLiteral("ro:*"), QStringLiteral("--read-only"),
                              QStringLiteral("--yes"), QStringLiteral("--backup"), file(QStringLiteral("ro2.klb"))}));
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.out.contains("read-only"), refused.out.constData());
        QCOMPARE(client.allKeys("ro:*").size(), std::size_t(100));
        QCOMPARE(client.commandCalls("unlink"), 0LL);
    }

    // A cancel between batches: the backup holds exactly the keys deleted, is complete, and restores them; the
    // summary's counts add up to the request and match the server.
    void cancelMidDeleteLeavesConsistentBackup()
    {
        fillEveryType(m_server.port(), 3000, "cancel:");
        PlainClient client(m_server.port());
        const std::map<QByteArray, Truth> before = truthOf(client);
        auto connection = redis::Connection::open(m_server.connectionOptions());
        QVERIFY(connection.ok());
        edit::BulkRequest request;
        request.kind = edit::BulkKind::Delete;
        request.keys = keysOf(before);
        request.backupPath = file(QStringLiteral("cancel.klb"));
        request.speed = scan::ScanSpeed::Gentle;
        std::atomic<bool> cancel{false};
        const edit::BulkSummary summary =
            edit::runBulkAction(**connection, request, &cancel, [&](const edit::BulkProgress& progress) {
                if (progress.processed >= 320)
                    cancel = true;
            });
        QVERIFY(summary.cancelled);
        QCOMPARE(summary.done, std::uint64_t(320)); // ten gentle batches of 32
        QCOMPARE(summary.notAttempted, std::uint64_t(3000 - 320));
        QCOMPARE(summary.done + summary.unchanged + summary.failed + summary.unknown + summary.notAttempted,
                 summary.total);
        QVERIFY(summary.text().contains(QStringLiteral("not attempted: cancelled")));
        QCOMPARE(std::uint64_t(std::count(summary.outcomes.begin(), summary.outcomes.end(), edit::KeyOutcome::Done)),
                 summary.done);
        for (std::size_t i = 0; i < summary.outcomes.size(); ++i) // per key, as the server says
            QCOMPARE(client.integer({"EXISTS", request.keys[i]}),
                     summary.outcomes[i] == edit::KeyOutcome::Done ? 0LL : 1LL);
        QCOMPARE(client.allKeys().size(), std::size_t(3000 - 320));

        bool complete = false;
        const std::vector<edit::BackupRecord> records = readBackup(request.backupPath, &complete);
        QVERIFY(complete);
        QCOMPARE(records.size(), std::size_t(320));
        for (const edit::BackupRecord& record : records) {
            QCOMPARE(client.integer({"EXISTS", record.key}), 0LL); // backed up means deleted, and only those
            QCOMPARE(record.payload, before.at(record.key).dump);
        }
        edit::BackupReader reader;
        QVERIFY(reader.open(request.backupPath).ok());
        const edit::RestoreSummary restored = edit::restoreBackup(**connection, reader, {false, scan::ScanSpeed::Full});
        QCOMPARE(restored.restored, std::uint64_t(320));
        QVERIFY(restored.succeeded());
        compareRestored(before, truthOf(client));
    }

    // The server killed mid-delete: reported as a lost connection, every key counted once, and the backup (cut
    // short or not) still restores each key that is gone.
    void killedServerIsReported()
    {
        fillEveryType(m_server.port(), 6000, "kill:");
        PlainClient client(m_server.port());
        const std::map<QByteArray, Truth> before = truthOf(client);
        auto connection = redis::Connection::open(m_server.connectionOptions());
        QVERIFY(connection.ok());
        edit::BulkRequest request;
        request.kind = edit::BulkKind::Delete;
        request.keys = keysOf(before);
        request.backupPath = file(QStringLiteral("kill.klb"));
        const qint64 pid = m_server.processId();
        bool killed = false;
        const edit::BulkSummary summary =
            edit::runBulkAction(**connection, request, nullptr, [&](const edit::BulkProgress& progress) {
                if (progress.processed >= 640 && !killed) {
                    ::kill(pid_t(pid), SIGKILL);
                    killed = true;
                }
            });
        QVERIFY(killed);
        QVERIFY(summary.stoppedBy);
        QVERIFY2(summary.stoppedBy->isConnectionError() || summary.stoppedBy->kind == redis::ErrorKind::ConnectionLost,
                 qPrintable(summary.stoppedBy->message));
        QVERIFY(summary.done >= 640);
        QVERIFY(summary.notAttempted > 0);
        QCOMPARE(summary.done + summary.unchanged + summary.failed + summary.unknown + summary.notAttempted,
                 summary.total);
        QVERIFY(summary.text().contains(QStringLiteral("Stopped:")));
        bool complete = false;
        const std::vector<edit::BackupRecord> records = readBackup(request.backupPath, &complete);
        QVERIFY(records.size() >= summary.done);
    }

    void renameIntoNamespaceNeverOverwrites()
    {
        PlainClient client(m_server.port());
        for (int i = 0; i < 40; ++i)
            client.command({"SET", "old:" + QByteArray::number(i), "v" + QByteArray::number(i)});
        client.command({"SET", "new:3", "was here first"});
        const QString backup = file(QStringLiteral("rename.klb"));
        const test::CliRun renamed =
            test::runCli(cli(QStringLiteral("rename"),
                             {QStringLiteral("--match"), QStringLiteral("old:*"), QStringLiteral("--to"),
                              QStringLiteral("new:"), QStringLiteral("--yes"), QStringLiteral("--backup"), backup}));
        QCOMPARE(renamed.exitCode, 1); // one failed
        QVERIFY2(renamed.err.contains("old:0  ->  new:0") || renamed.err.contains("  ->  new:"),
                 renamed.err.constData());
        QVERIFY2(renamed.out.contains("Renamed 39 of 40 keys.") && renamed.out.contains("1 key failed"),
                 renamed.out.constData());
        QCOMPARE(client.command({"GET", "new:3"}), QByteArray("was here first"));
        QCOMPARE(client.command({"GET", "old:3"}), QByteArray("v3"));
        QCOMPARE(client.command({"GET", "new:17"}), QByteArray("v17"));
        QCOMPARE(client.allKeys("old:*").size(), std::size_t(1));
    }

    // A rename stopped part way (killed): restoring its backup puts back the keys it renamed, leaves the ones it never
    // reached where they are, says that the renamed copies remain, and is a success (it was "exist already", exit 1).
    void restoringAStoppedRenameIsARecovery()
    {
        PlainClient client(m_server.port());
        for (int i = 0; i < 40; ++i)
            client.command({"SET", "from:" + QByteArray::number(i), "v" + QByteArray::number(i)});
        const QString backup = file(QStringLiteral("stopped-rename.klb"));
        const test::CliRun renamed =
            test::runCli(cli(QStringLiteral("rename"),
                             {QStringLiteral("--match"), QStringLiteral("from:*"), QStringLiteral("--to"),
                              QStringLiteral("to:"), QStringLiteral("--yes"), QStringLiteral("--backup"), backup}));
        QCOMPARE(renamed.exitCode, 0);
        // As if it had been killed after the first 25: the last 15 never renamed.
        for (int i = 25; i < 40; ++i)
            QCOMPARE(client.command({"RENAME", "to:" + QByteArray::number(i), "from:" + QByteArray::number(i)}),
                     QByteArray("OK"));
        const test::CliRun restored = test::runCli({QStringLiteral("restore"), backup, m_server.uri()});
        QVERIFY2(restored.exitCode == 0, restored.out.constData());
        QVERIFY2(restored.out.contains("15 were never renamed"), restored.out.constData());
        QVERIFY2(restored.out.contains("copies under the new names are still there"), restored.out.constData());
        QCOMPARE(client.allKeys("from:*").size(), std::size_t(40));
        QCOMPARE(client.allKeys("to:*").size(), std::size_t(25));
        QCOMPARE(client.command({"GET", "from:7"}), QByteArray("v7"));
    }

    void renamePlanRoundTrip()
    {
        PlainClient client(m_server.port());
        client.command({"SET", QByteArray("User_1\xff", 7), "one"});
        client.command({"SET", "User_2", "two"});
        const QString script = file(QStringLiteral("plan.redis"));
        const test::CliRun planned = test::runCli(
            cli(QStringLiteral("rename"),
                {QStringLiteral("--match"), QStringLiteral("User_*"), QStringLiteral("--from"), QStringLiteral("User_"),
                 QStringLiteral("--to"), QStringLiteral("user:"), QStringLiteral("--script"), script}));
        QVERIFY2(planned.exitCode == 0, planned.err.constData());
        QFile written(script);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QVERIFY2(text.contains("RENAMENX \"User_1\\xff\" \"user:1\\xff\"\n"), text.constData());
        QCOMPARE(client.allKeys("User_*").size(), std::size_t(2)); // writing the plan changes nothing
        const test::CliRun ran =
            test::runCli(cli(QStringLiteral("rename"), {QStringLiteral("--plan"), script, QStringLiteral("--yes"),
                                                        QStringLiteral("--backup"), file(QStringLiteral("plan.klb"))}));
        QVERIFY2(ran.exitCode == 0, ran.out.constData());
        QCOMPARE(client.command({"GET", QByteArray("user:1\xff", 7)}), QByteArray("one"));
        QCOMPARE(client.command({"GET", "user:2"}), QByteArray("two"));
    }

    // The naming-variants plan from the CLI: written for review, then run; the canonical keys stay as they are.
    void namingVariantsFromTheCli()
    {
        PlainClient client(m_server.port());
        std::vector<std::vector<QByteArray>> commands;
        for (int i = 1; i <= 100; ++i)
            commands.push_back({"SET", "order:" + QByteArray::number(i), "o"});
        for (int i = 501; i <= 510; ++i)
            commands.push_back({"SET", "Order_" + QByteArray::number(i), "variant"});
        QCOMPARE(client.pipeline(commands), std::size_t(0));
        const QString script = file(QStringLiteral("variants.redis"));
        const test::CliRun planned = test::runCli(
            cli(QStringLiteral("rename"), {QStringLiteral("--naming-variants"), QStringLiteral("--script"), script}));
        QVERIFY2(planned.exitCode == 0, planned.err.constData());
        QFile written(script);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QCOMPARE(text.count('\n'), 10);
        QVERIFY2(text.contains("RENAMENX \"Order_505\" \"order:505\"\n"), text.constData());
        QCOMPARE(client.allKeys("Order_*").size(), std::size_t(10));
        // One new name taken meanwhile: the preview says so, RENAMENX leaves that key, the rest move.
        client.command({"SET", "order:510", "canonical"});
        const test::CliRun ran = test::runCli(
            cli(QStringLiteral("rename"), {QStringLiteral("--naming-variants"), QStringLiteral("--yes"),
                                           QStringLiteral("--backup"), file(QStringLiteral("variants.klb"))}));
        QCOMPARE(ran.exitCode, 1);
        QVERIFY2(ran.err.contains("Order_501  ->  order:501"), ran.err.constData());
        QVERIFY2(ran.err.contains("1 new names exist already or repeat in the plan"), ran.err.constData());
        QVERIFY2(ran.out.contains("Renamed 9 of 10 keys."), ran.out.constData());
        QCOMPARE(client.allKeys("Order_*"), std::vector<QByteArray>{"Order_510"});
        QCOMPARE(client.command({"GET", "order:510"}), QByteArray("canonical"));
        QCOMPARE(client.command({"GET", "order:505"}), QByteArray("variant"));
    }

    void expireWithJitterSpreadsTtls()
    {
        QCOMPARE(test::fillStringKeys(m_server.port(), 300, 0, "cache:"), std::size_t(0));
        const test::CliRun expired = test::runCli(
            cli(QStringLiteral("expire"),
                {QStringLiteral("--match"), QStringLiteral("cache:*"), QStringLiteral("--ttl"), QStringLiteral("1h"),
                 QStringLiteral("--jitter"), QStringLiteral("10m"), QStringLiteral("--yes"), QStringLiteral("--backup"),
                 file(QStringLiteral("jitter.klb"))}));
        QVERIFY2(expired.exitCode == 0, expired.err.constData());
        PlainClient client(m_server.port());
        std::set<long long> distinct;
        for (const QByteArray& key : client.allKeys("cache:*")) {
            const long long pttl = client.integer({"PTTL", key});
            QVERIFY2(pttl > 3'540'000 && pttl <= 4'200'000, QByteArray::number(pttl).constData());
            distinct.insert(pttl / 1000);
        }
        QVERIFY(distinct.size() > 100); // spread over the ten minutes, not one second
        const test::CliRun persisted =
            test::runCli(cli(QStringLiteral("expire"),
                             {QStringLiteral("--match"), QStringLiteral("cache:1*"), QStringLiteral("--persist"),
                              QStringLiteral("--yes"), QStringLiteral("--backup"), file(QStringLiteral("p.klb"))}));
        QVERIFY2(persisted.exitCode == 0, persisted.err.constData());
        QCOMPARE(client.integer({"PTTL", "cache:1"}), -1LL);
        QCOMPARE(client.integer({"PTTL", "cache:150"}), -1LL);
        QVERIFY(client.integer({"PTTL", "cache:2"}) > 0);
    }

    // Damage is told from a writer that stopped. 6,000 keys are deleted with a backup; then copies of it are damaged
    // (bytes flipped inside the compressed stream, single bits anywhere, the gzip trailer cut off), cut short, and
    // hand-made with lengths no record can have. Damage: exit 2, named on stdout and stderr with its offset and the
    // last good key, and nothing written (the whole file is checked first: its CRC is only known at its end). Cut
    // short: refused as well, and with --incomplete every key it holds restored. Nothing allocates what a length
    // claims: the restore runs with 1 GiB of address space.
    void aDamagedBackupIsAnErrorAndACutOneIsNot()
    {
        fillEveryType(m_server.port(), 6000, "dmg:");
        PlainClient client(m_server.port());
        const QString backup = file(QStringLiteral("whole.klb"));
        const test::CliRun deleted =
            test::runCli(cli(QStringLiteral("delete"), {QStringLiteral("--match"), QStringLiteral("dmg:*"),
                                                        QStringLiteral("--backup"), backup, QStringLiteral("--yes")}));
        QVERIFY2(deleted.exitCode == 0, deleted.err.constData());
        const QByteArray whole = readFile(backup);
        QVERIFY(whole.size() > 20'000);
        const auto restore = [&](const QString& path, const QStringList& extra = {}) {
            QProcess process;
            process.setChildProcessModifier([] {
                // AddressSanitizer reserves terabytes of address space for its shadow memory: under it, the limit
                // would stop the restore before it starts (its own checks catch a wild allocation instead).
                if (!builtWithAddressSanitizer) {
                    const rlimit limit{1ull << 30, 1ull << 30};
                    ::setrlimit(RLIMIT_AS, &limit);
                }
            });
            test::startCli(process, QStringList{QStringLiteral("restore"), path, m_server.uri()} + extra);
            return test::finishCli(process);
        };

        // Ten bytes flipped in the middle of the gzip stream.
        QByteArray flipped = whole;
        for (qsizetype i = whole.size() / 2; i < whole.size() / 2 + 10; ++i)
            flipped[i] = char(~flipped[i]);
        writeFile(file(QStringLiteral("flipped.klb")), flipped);
        QCOMPARE(client.command({"CONFIG", "RESETSTAT"}), QByteArray("OK"));
        const test::CliRun damaged = restore(file(QStringLiteral("flipped.klb")));
        QCOMPARE(damaged.exitCode, 2);
        QVERIFY2(damaged.out.contains("DAMAGED") && damaged.out.contains("damaged at byte"), damaged.out.constData());
        QVERIFY2(damaged.out.contains("Nothing was restored"), damaged.out.constData());
        QVERIFY2(damaged.err.contains("damaged at byte"), damaged.err.constData());
        QVERIFY2(damaged.out.contains("it was to hold 6,000"), damaged.out.constData());
        QCOMPARE(client.integer({"DBSIZE"}), 0LL);
        QCOMPARE(client.commandCalls("restore"), 0LL);

        // One bit flipped anywhere, 40 times: either the file still reads as the same backup (a bit of the gzip
        // header's time stamp), and every key comes back as it was, or it is refused and nothing is written. Never a
        // key that was not in the backup.
        std::mt19937 random(61);
        for (int trial = 0; trial < 40; ++trial) {
            QByteArray bit = whole;
            const qsizetype at = qsizetype(random() % std::uint32_t(whole.size()));
            bit[at] = char(bit[at] ^ (1 << (random() % 8)));
            writeFile(file(QStringLiteral("bit.klb")), bit);
            const test::CliRun run = restore(file(QStringLiteral("bit.klb")));
            const std::vector<QByteArray> keys = client.allKeys();
            const QByteArray where = "bit flipped at byte " + QByteArray::number(at) + ": exit " +
                                     QByteArray::number(run.exitCode) + ", " + run.out + run.err;
            if (run.exitCode == 0) {
                QCOMPARE(keys.size(), std::size_t(6000));
                QVERIFY2(
                    std::all_of(keys.begin(), keys.end(), [](const QByteArray& k) { return k.startsWith("dmg:"); }),
                    where.constData());
            } else {
                // Damage found in the header is told before any summary: on stderr only. A flip in the gzip header's
                // name or the first compressed bytes makes a file that no longer starts like a backup: refused too.
                QVERIFY2(run.exitCode == 2 && (run.out.contains("DAMAGED") || run.err.contains("is damaged") ||
                                               run.err.contains("is not a Keylens backup")),
                         where.constData());
                QVERIFY2(keys.empty(), where.constData());
            }
            QCOMPARE(client.command({"FLUSHALL"}), QByteArray("OK"));
        }

        // Cut before its gzip trailer (the end record is there, the CRC is not): damaged, not complete.
        writeFile(file(QStringLiteral("notrailer.klb")), whole.left(whole.size() - 8));
        const test::CliRun noTrailer = restore(file(QStringLiteral("notrailer.klb")));
        QCOMPARE(noTrailer.exitCode, 2);
        QVERIFY2(noTrailer.out.contains("gzip trailer"), noTrailer.out.constData());
        QCOMPARE(client.integer({"DBSIZE"}), 0LL);

        // Cut short at 60% (no end record, no gzip trailer): nothing vouches for it, and it cannot be told from a
        // writer that stopped. Refused whole, exit 2, nothing written, with the way to restore it all the same (it
        // said "Restored 3,600 of 3,600 keys", exit 0). With --incomplete, every key it holds is restored, exit 0, and
        // it says so.
        writeFile(file(QStringLiteral("cut.klb")), whole.left(whole.size() * 6 / 10));
        QCOMPARE(client.command({"CONFIG", "RESETSTAT"}), QByteArray("OK"));
        const test::CliRun refused = restore(file(QStringLiteral("cut.klb")));
        QVERIFY2(refused.exitCode == 2, refused.out.constData());
        QVERIFY2(refused.out.contains("without its end record") && refused.out.contains("Nothing was restored"),
                 refused.out.constData());
        QVERIFY2(refused.err.contains("restore --incomplete") && refused.err.contains("Nothing was restored"),
                 refused.err.constData());
        QCOMPARE(client.integer({"DBSIZE"}), 0LL);
        QCOMPARE(client.commandCalls("restore"), 0LL);
        const test::CliRun cut = restore(file(QStringLiteral("cut.klb")), {QStringLiteral("--incomplete")});
        QVERIFY2(cut.exitCode == 0, cut.out.constData());
        QVERIFY2(cut.out.contains("stops early") && !cut.out.contains("DAMAGED"), cut.out.constData());
        const std::size_t fromCut = client.allKeys("dmg:*").size();
        QVERIFY(fromCut > 1000 && fromCut < 6000);
        QVERIFY2(cut.out.contains(QStringLiteral("Restored %L1 of %L1 keys.").arg(fromCut).toUtf8()),
                 cut.out.constData());
        QCOMPARE(client.command({"FLUSHALL"}), QByteArray("OK"));

        // Lengths that lie, in otherwise well-formed files: a key of 0xFFFFFFF0 bytes, a payload of 0x7FFFFFFF
        // bytes in a small file, a record that runs past a properly closed stream, an end record that miscounts.
        client.command({"SET", "probe", "value"});
        const QByteArray payload = client.command({"DUMP", "probe"});
        client.command({"DEL", "probe"});
        QVERIFY(!payload.isEmpty());
        const QByteArray good = keyRecord("ok:1", payload, 4, quint32(payload.size()));
        const QByteArray filler(1'500'000, 'x');
        const struct
        {
            const char* name;
            QByteArray bytes;
            const char* says;
        } cases[] = {
            {"hugekey", handMadeBackup({good, keyRecord("k", payload, 0xFFFFFFF0u, 10)}, 2, true), "a key of"},
            {"hugevalue", handMadeBackup({good, keyRecord("k", filler, 1, 0x7FFFFFFFu)}, 2, true), "a value of"},
            {"pastend", handMadeBackup({good, keyRecord("k", payload, 1, 5000)}, 2, true), "past the end"},
            {"miscount", handMadeBackup({good, good}, 2, false), ""},
        };
        for (const auto& bad : cases) {
            QByteArray bytes = bad.bytes;
            if (QByteArray(bad.name) == "miscount") // an end record that says 3 where 2 were written
                bytes = handMadeBackup({good, good, 'E' + QByteArray::fromHex("0300000000000000")}, 2, false);
            const QString path = file(QString::fromLatin1(bad.name) + QStringLiteral(".klb"));
            writeFile(path, bytes);
            const test::CliRun run = restore(path);
            QVERIFY2(run.exitCode == 2, QByteArray(QByteArray(bad.name) + ": " + run.out + run.err).constData());
            QVERIFY2(run.out.contains("DAMAGED") && run.out.contains(bad.says), run.out.constData());
            QVERIFY2(run.out.contains("'ok:1'"), run.out.constData()); // the last good key
            QCOMPARE(client.integer({"EXISTS", "ok:1"}), 0LL);         // refused whole: not even the good one
        }

        // Read-only: nothing restored *because* of it, and the keys a restore would put back are counted.
        QCOMPARE(client.command({"CONFIG", "RESETSTAT"}), QByteArray("OK"));
        const test::CliRun readOnly = restore(backup, {QStringLiteral("--read-only")});
        QCOMPARE(readOnly.exitCode, 1);
        QVERIFY2(readOnly.out.contains("Restored nothing: the connection is read-only") &&
                     readOnly.out.contains("would put back the 6,000 keys"),
                 readOnly.out.constData());
        QCOMPARE(client.integer({"DBSIZE"}), 0LL);
        QCOMPARE(client.commandCalls("restore"), 0LL);
    }

    // expire --persist writes a backup too: the TTLs it removed come back with restore --replace.
    void persistKeepsTheOldTtlsInABackup()
    {
        QCOMPARE(test::fillStringKeys(m_server.port(), 200, 0, "ttl:"), std::size_t(0));
        PlainClient client(m_server.port());
        std::map<QByteArray, long long> before;
        for (const QByteArray& key : client.allKeys("ttl:*")) {
            client.command({"PEXPIRE", key, QByteArray::number(3'600'000 + before.size() * 1000)});
            before[key] = client.integer({"PTTL", key});
        }
        const QString backup = file(QStringLiteral("persist.klb"));
        const test::CliRun persisted = test::runCli(cli(
            QStringLiteral("expire"), {QStringLiteral("--match"), QStringLiteral("ttl:*"), QStringLiteral("--persist"),
                                       QStringLiteral("--yes"), QStringLiteral("--backup"), backup}));
        QVERIFY2(persisted.exitCode == 0, persisted.err.constData());
        for (const auto& [key, pttl] : before)
            QCOMPARE(client.integer({"PTTL", key}), -1LL);
        const test::CliRun plain = test::runCli({QStringLiteral("restore"), backup, m_server.uri()});
        QCOMPARE(plain.exitCode, 1);
        QVERIFY2(plain.out.contains("restore --replace puts back"), plain.out.constData());
        const test::CliRun replaced =
            test::runCli({QStringLiteral("restore"), backup, m_server.uri(), QStringLiteral("--replace")});
        QVERIFY2(replaced.exitCode == 0, replaced.out.constData());
        for (const auto& [key, pttl] : before) {
            const long long now = client.integer({"PTTL", key});
            QVERIFY2(now > pttl - 60'000 && now <= pttl, key.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestBulkActions)
#include "tst_bulkactions.moc"
