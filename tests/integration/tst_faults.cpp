// keylens-cli under faults, as a reliability engineer tries it before pointing it at production. Each
// case starts its own server (or a fake one), injects the fault, and checks the exit code, the message
// on stderr, and that the report is valid and honest.
#include "CliRunner.h"
#include "FakeRedis.h"
#include "JsonReport.h"
#include "PlainClient.h"
#include "ProcessFiles.h"
#include "Sanitizers.h"
#include "TestServer.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>

using namespace keylens;
using test::parseJson;

namespace {

const QByteArray Canary = "c4nary-Secret-7741";

QString portOf(const demo::RedisServerProcess& server)
{
    return QString::number(server.port());
}

qint64 field(const QJsonObject& object, const char* path)
{
    QJsonValue value = object;
    for (const QByteArray& part : QByteArray(path).split('.'))
        value = value.toObject()[QString::fromLatin1(part)];
    return value.toInteger(-1);
}

// Every key SCAN returned is stored, a duplicate, vanished, or still in flight when the scan stopped.
bool everyKeyAccountedFor(const QJsonObject& report)
{
    const qint64 accounted = field(report, "scan.keys") + field(report, "scan.duplicates") +
                             field(report, "scan.vanished") + field(report, "scan.keys_in_flight");
    if (accounted != field(report, "scan.keys_seen"))
        qWarning("accounted %lld of %lld keys seen", accounted, field(report, "scan.keys_seen"));
    return accounted == field(report, "scan.keys_seen");
}

void fill(const demo::RedisServerProcess& server, int keys, int withTtl = 0, const QByteArray& prefix = "k:")
{
    QCOMPARE(test::fillStringKeys(server.port(), keys, withTtl, prefix), std::size_t(0));
}

// Runs keylens-cli while this thread's event loop serves a FakeRedis.
test::CliRun runServing(const QStringList& arguments, int timeoutMs = 30000)
{
    QProcess process;
    test::startCli(process, arguments);
    if (!QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, timeoutMs))
        qWarning("keylens-cli did not finish in time");
    return test::finishCli(process, 1000);
}

// A fake server with `keys` string keys over SCAN calls of 1000, answering PTTL with `pttlAnswer(i)`.
QByteArray fakeScanServer(const QList<QByteArray>& command, int keys, const std::function<QByteArray(int)>& pttl)
{
    const QByteArray name = command.value(0).toUpper();
    if (name == "SCAN") {
        const int cursor = command.value(1).toInt();
        const int next = cursor + 1000 >= keys ? 0 : cursor + 1000;
        QList<QByteArray> names;
        for (int i = cursor; i < std::min(keys, cursor + 1000); ++i)
            names << test::FakeRedis::bulk("k:" + QByteArray::number(i));
        return test::FakeRedis::array({test::FakeRedis::bulk(QByteArray::number(next)), test::FakeRedis::array(names)});
    }
    if (name == "TYPE")
        return "+string\r\n";
    if (name == "PTTL")
        return pttl(command.value(1).mid(2).toInt());
    if (name == "MEMORY")
        return command.value(2) == "keylens:probe" ? "$-1\r\n" : ":56\r\n";
    if (name == "INFO")
        return test::FakeRedis::bulk("redis_version:7.4.0\r\n");
    if (name == "DBSIZE")
        return ':' + QByteArray::number(keys) + "\r\n";
    if (name == "PING")
        return "+PONG\r\n";
    return "+OK\r\n";
}

} // namespace

class TestFaults : public QObject
{
    Q_OBJECT

    // Starts `keylens-cli scan --format json` at `keysPerSecond` and waits until the server was asked about `asked`
    // keys (it counts the PTTLs): a point mid-scan the server itself vouches for. False if the scan ended first.
    static bool scanUntilAsked(const demo::RedisServerProcess& server, QProcess& process, int keysPerSecond, int asked)
    {
        test::startCli(process,
                       {QStringLiteral("scan"), QStringLiteral("-p"), portOf(server), QStringLiteral("--max-rate"),
                        QString::number(keysPerSecond), QStringLiteral("--format"), QStringLiteral("json")});
        test::PlainClient admin(server.port());
        QElapsedTimer waited;
        waited.start();
        while (admin.commandCalls("pttl") < asked && process.state() == QProcess::Running && waited.elapsed() < 60'000)
            QTest::qWait(20);
        return process.state() == QProcess::Running && admin.commandCalls("pttl") >= asked;
    }

private Q_SLOTS:
    // ---- 1. deep keys ----

    void keyOfAHundredThousandSegments()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        test::PlainClient client(server.port());
        QCOMPARE(client.command({"SET", "deep" + QByteArray(99'999, ':'), "v"}), QByteArray("OK")); // 100,000 segments
        QCOMPARE(client.command({"SET", "big1:" + QByteArray(512 * 1024, ':'), "v"}),
                 QByteArray("OK")); // a 512 KB name
        for (const QString& format : {QStringLiteral("json"), QStringLiteral("text")}) {
            const auto run =
                test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(server), QStringLiteral("--depth"),
                              QStringLiteral("256"), QStringLiteral("--format"), format});
            QCOMPARE(run.exitCode, 0);
            if (format == QLatin1String("json")) {
                const QJsonObject report = parseJson(run.out);
                QCOMPARE(field(report, "totals.keys"), 2);
                // The namespaces nest down to --depth, one level per ':'.
                int levels = 0;
                QJsonArray level = report[QStringLiteral("namespaces")].toArray();
                while (!level.isEmpty()) {
                    ++levels;
                    level = level.first().toObject()[QStringLiteral("children")].toArray();
                }
                QCOMPARE(levels, 256);
            } else {
                QVERIFY(run.out.contains("deep:"));
            }
        }
        // The lint too, in memory linear in the key's length: 1 GiB of address space is enough for every format (it
        // took 5 GB for text and 10 GB for JSON when every level of the key kept its own copy of its pattern).
        for (const QString& format : {QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("sarif")}) {
            QProcess lint;
            lint.setChildProcessModifier([] {
                if (!test::builtWithAddressSanitizer) {
                    const rlimit limit{1ull << 30, 1ull << 30};
                    ::setrlimit(RLIMIT_AS, &limit);
                }
            });
            test::startCli(lint, {QStringLiteral("lint"), QStringLiteral("-p"), portOf(server),
                                  QStringLiteral("--format"), format});
            const auto linted = test::finishCli(lint);
            QVERIFY2(linted.exitCode == 1, linted.err.constData()); // key-length is an error
            QVERIFY2(linted.out.contains("deep:::"), qPrintable(format));
        }
        const auto tooDeep = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(server),
                                           QStringLiteral("--depth"), QStringLiteral("1000000")});
        QCOMPARE(tooDeep.exitCode, 2);
        QVERIFY(tooDeep.out.isEmpty());
        QVERIFY2(tooDeep.err.contains("--depth takes a whole number from 0 to 256"), tooDeep.err.constData());
    }

    // The window's command line is read before it needs a display: a usage error without one prints the usage error
    // and exits 2 (it used to abort on "could not connect to display"), and so does an option a file cannot honour.
    void guiUsageErrorsNeedNoDisplay()
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            environment.remove(QLatin1String(name));
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("dump.rdb"));
        QVERIFY(QFile::copy(QStringLiteral(KEYLENS_FIXTURES_DIR "/rdb/redis_encodings.rdb"), file));
        const QList<std::pair<QStringList, QByteArray>> cases{
            {{QStringLiteral("--bogus")}, "Unknown option 'bogus'"},
            {{file, QStringLiteral("--speed"), QStringLiteral("gentle")}, "--speed does not apply to an RDB file"},
            {{file, QStringLiteral("--max-rate"), QStringLiteral("10")}, "--max-rate does not apply to an RDB file"},
            {{file, QStringLiteral("--sample"), QStringLiteral("10")}, "--sample does not apply to an RDB file"},
            {{file, QStringLiteral("--tls")}, "no other connection flag"},
            {{file, QStringLiteral("-t"), QStringLiteral("3")}, "no other connection flag"},
            // Options that mean nothing without another: refused, never ignored (they were, exit 0).
            {{QStringLiteral("--demo-keys"), QStringLiteral("10")}, "--demo-keys goes with --demo"},
            {{QStringLiteral("-p"), QStringLiteral("7911"), QStringLiteral("--demo-port"), QStringLiteral("7000")},
             "--demo-port goes with --demo"},
            {{QStringLiteral("-p"), QStringLiteral("7911"), QStringLiteral("--size"), QStringLiteral("800x600")},
             "--size goes with --screenshot"},
        };
        for (const auto& [arguments, message] : cases) {
            QProcess gui;
            gui.setProcessEnvironment(environment);
            gui.start(QStringLiteral(KEYLENS_GUI_PATH), arguments);
            QVERIFY(gui.waitForFinished(30000));
            const QByteArray err = gui.readAllStandardError();
            QCOMPARE(gui.exitStatus(), QProcess::NormalExit); // not an abort
            QCOMPARE(gui.exitCode(), 2);
            QVERIFY2(err.contains(message), err.constData());
            QVERIFY2(!err.contains("display"), err.constData());
        }
    }

    // ---- 2. output that could not be written ----

    void reportThatCannotBeWrittenIsAnError()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        fill(server, 400, 0, "ns:");
        for (int i = 0; i < 200; ++i)
            fill(server, 1, 0, "ns" + QByteArray::number(i) + ":"); // a JSON report well above 8 KB
        const QStringList scan = {QStringLiteral("scan"), QStringLiteral("-p"), portOf(server),
                                  QStringLiteral("--format"), QStringLiteral("json")};

        QProcess toDevFull;
        toDevFull.setStandardOutputFile(QStringLiteral("/dev/full"));
        test::startCli(toDevFull, scan);
        const auto full = test::finishCli(toDevFull);
        QCOMPARE(full.exitCode, 1);
        QVERIFY2(full.err.contains("cannot write the report to standard output: No space left on device"),
                 full.err.constData());

        // What --help and --version print is checked as well: to /dev/full they fail, and say so.
        for (const QStringList& asked :
             {QStringList{QStringLiteral("--version")}, QStringList{QStringLiteral("--help")},
              QStringList{QStringLiteral("scan"), QStringLiteral("--help")}}) {
            QProcess printing;
            printing.setStandardOutputFile(QStringLiteral("/dev/full"));
            test::startCli(printing, asked);
            const auto printed = test::finishCli(printing);
            QCOMPARE(printed.exitCode, 1);
            QVERIFY2(printed.err.contains("to standard output: No space left on device"), printed.err.constData());
        }
        QProcess guiVersion;
        guiVersion.setStandardOutputFile(QStringLiteral("/dev/full"));
        guiVersion.start(QStringLiteral(KEYLENS_GUI_PATH), {QStringLiteral("--version")});
        QVERIFY(guiVersion.waitForFinished(30000));
        QCOMPARE(guiVersion.exitCode(), 1);
        QVERIFY(guiVersion.readAllStandardError().contains("cannot write to standard output: No space left on device"));

        // An action's summary that could not be written is said too; the action itself was done.
        QProcess deleting;
        deleting.setStandardOutputFile(QStringLiteral("/dev/full"));
        test::startCli(deleting,
                       {QStringLiteral("delete"), QStringLiteral("-p"), portOf(server), QStringLiteral("--pattern"),
                        QStringLiteral("ns:<int>"), QStringLiteral("--yes"), QStringLiteral("--no-backup")});
        const auto deleted = test::finishCli(deleting);
        QCOMPARE(deleted.exitCode, 1);
        QVERIFY2(deleted.err.contains("cannot write the summary to standard output: No space left on device"),
                 deleted.err.constData());
        QCOMPARE(test::PlainClient(server.port()).integer({"EXISTS", "ns:0"}), 0LL);

        const auto outputFull =
            test::runCli(scan + QStringList{QStringLiteral("--output"), QStringLiteral("/dev/full")});
        QCOMPARE(outputFull.exitCode, 1);
        QVERIFY2(outputFull.err.contains("cannot write /dev/full"), outputFull.err.constData());

        const QString prlimit = QStandardPaths::findExecutable(QStringLiteral("prlimit"));
        if (prlimit.isEmpty())
            QSKIP("prlimit (util-linux) is not installed: the nearly-full-disk cases need it");
        QTemporaryDir dir;
        const QString report = dir.filePath(QStringLiteral("report.json"));
        {
            QFile old(report);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("the previous report\n");
        }
        // A file size limit of 8 KB stands in for a nearly full disk: the write comes up short.
        QProcess limited;
        limited.start(prlimit, QStringList{QStringLiteral("--fsize=8192"), QStringLiteral(KEYLENS_CLI_PATH)} + scan +
                                   QStringList{QStringLiteral("--output"), report});
        const auto shortWrite = test::finishCli(limited);
        QCOMPARE(shortWrite.exitCode, 1);
        QVERIFY2(shortWrite.err.contains(QByteArray("cannot write " + report.toUtf8())), shortWrite.err.constData());
        QFile kept(report);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("the previous report\n")); // not half a new one
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("report.json")}); // no temp left

        QProcess limitedStdout;
        limitedStdout.setStandardOutputFile(dir.filePath(QStringLiteral("stdout.json")));
        limitedStdout.start(prlimit,
                            QStringList{QStringLiteral("--fsize=8192"), QStringLiteral(KEYLENS_CLI_PATH)} + scan);
        const auto shortStdout = test::finishCli(limitedStdout);
        QCOMPARE(shortStdout.exitCode, 1);
        QVERIFY2(shortStdout.err.contains("cannot write the report to standard output"), shortStdout.err.constData());
    }

    void unwritableOutputFolderIsRefusedBeforeTheScan()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        fill(server, 2000);
        QElapsedTimer clock;
        clock.start();
        // At 100 keys/s this scan would take 20 s: the refusal must come first.
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(server),
                                       QStringLiteral("--max-rate"), QStringLiteral("100"), QStringLiteral("--output"),
                                       QStringLiteral("/nonexistent-folder/report.json")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(test::PlainClient(server.port()).commandCalls("scan"), 0LL); // refused before its first SCAN
        QVERIFY(clock.elapsed() < 15000); // and long before the scan's 20 s, even on a loaded machine
        QVERIFY2(run.err.contains("the folder /nonexistent-folder does not exist"), run.err.constData());
    }

    // ---- 3. passwords stay secret ----

    void passwordsOnTheCommandLineStaySecret()
    {
        demo::RedisServerProcess::Options options;
        options.configText = "requirepass " + Canary + "\n";
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server, options);
        QCOMPARE(test::fillStringKeys(server.port(), 3000, 3000, "k:", Canary), std::size_t(0));
        const QString uri = QStringLiteral("redis://:%1@127.0.0.1:%2").arg(QString::fromLatin1(Canary), portOf(server));
        test::PlainClient admin(server.port(), {}, Canary);
        // Until the server has seen a SCAN after `scansBefore`: keylens-cli is past main()'s scrubbing of its arguments
        // and holds its password by then. (A fixed wait raced a loaded machine, where the loader alone can outlast it.)
        const auto untilScanning = [](QProcess& process, test::PlainClient& admin, long long scansBefore) {
            return QTest::qWaitFor(
                       [&] { return admin.commandCalls("scan") > scansBefore || process.state() != QProcess::Running; },
                       60'000) &&
                   process.state() == QProcess::Running;
        };
        QTemporaryDir reports;
        const QString report = reports.filePath(QStringLiteral("report"));
        const QList<QStringList> ways = {
            {QStringLiteral("scan"), QStringLiteral("-p"), portOf(server), QStringLiteral("-a"),
             QString::fromLatin1(Canary)},
            {QStringLiteral("scan"), uri},
            {QStringLiteral("scan"), QStringLiteral("-u"), uri, QStringLiteral("--format"), QStringLiteral("json")},
            {QStringLiteral("scan"), uri, QStringLiteral("--format"), QStringLiteral("json"),
             QStringLiteral("--output"), report},
            {QStringLiteral("lint"), uri, QStringLiteral("--format"), QStringLiteral("sarif"),
             QStringLiteral("--output"), report},
        };
        for (const QStringList& way : ways) {
            QFile::remove(report);
            QProcess process;
            const long long scans = admin.commandCalls("scan");
            test::startCli(process, way + QStringList{QStringLiteral("--max-rate"), QStringLiteral("3000")});
            // While the scan runs (about a second), `ps` shows no password: not in keylens-cli's arguments, nor in
            // any other process's (a child would show it there). Stopped while /proc is read, so that it cannot end
            // first on a loaded machine.
            QVERIFY(untilScanning(process, admin, scans));
            QCOMPARE(::kill(pid_t(process.processId()), SIGSTOP), 0);
            const QByteArray commandLine = test::processCommandLine(process.processId());
            QVERIFY(!commandLine.isEmpty());
            QVERIFY2(!commandLine.contains(Canary), commandLine.constData());
            QDirIterator processes(QStringLiteral("/proc"), {QStringLiteral("[0-9]*")}, QDir::Dirs);
            int processesRead = 0;
            while (processes.hasNext()) {
                const QByteArray other = test::processCommandLine(processes.next().section(u'/', -1).toLongLong());
                processesRead += !other.isEmpty();
                QVERIFY2(!other.contains(Canary), other.constData());
            }
            QVERIFY(processesRead > 2);
            QCOMPARE(::kill(pid_t(process.processId()), SIGCONT), 0);
            const auto run = test::finishCli(process);
            QCOMPARE(run.exitCode, 0);
            QVERIFY(!run.out.contains(Canary));
            QVERIFY(!run.err.contains(Canary));
            QVERIFY2(run.err.contains("Using a password with '-a' or '-u' option on the command line interface may "
                                      "not be safe. Use --pass-file FILE or the REDISCLI_AUTH"),
                     run.err.constData());
            QByteArray written = run.out;
            if (way.contains(QStringLiteral("--output"))) {
                QFile file(report);
                QVERIFY(file.open(QIODevice::ReadOnly));
                written = file.readAll();
                QVERIFY2(!written.contains(Canary), "the report holds the password");
            }
            if (way.first() == QStringLiteral("scan"))
                QVERIFY(written.contains("3,000") || written.contains("\"keys\": 3000"));
            else
                QVERIFY(written.contains("\"runs\"")); // SARIF
        }
        const auto quiet = test::runCli({QStringLiteral("scan"), uri, QStringLiteral("--no-auth-warning")});
        QCOMPARE(quiet.exitCode, 0);
        QVERIFY(quiet.err.isEmpty());

        // A crash mid-scan (a segfault, an abort) prints no password either: nothing in Keylens dumps its arguments,
        // environment or connection on the way down.
        for (const int signal : {SIGSEGV, SIGABRT}) {
            QProcess process;
            const long long scans = admin.commandCalls("scan");
            test::startCli(process,
                           {QStringLiteral("scan"), uri, QStringLiteral("--max-rate"), QStringLiteral("3000")});
            QVERIFY(untilScanning(process, admin, scans));
            // Stopped first, so that the scan cannot end between the check and the signal.
            QCOMPARE(::kill(pid_t(process.processId()), SIGSTOP), 0);
            QCOMPARE(process.state(), QProcess::Running);
            ::kill(pid_t(process.processId()), signal);
            QCOMPARE(::kill(pid_t(process.processId()), SIGCONT), 0);
            const auto crashed = test::finishCli(process);
            // A crash, or under AddressSanitizer its report and exit code 1.
            QVERIFY(process.exitStatus() == QProcess::CrashExit || crashed.exitCode != 0);
            QVERIFY2(!crashed.out.contains(Canary) && !crashed.err.contains(Canary), crashed.err.constData());
        }
    }

    // The password leaves `ps` as three stars whatever its length, with nothing after the title that could count it;
    // and a process that holds a password writes no core dump (a machine that writes core files here does for the
    // same crash without one: the control).
    void passwordsHaveAFixedMaskAndStayOutOfCoreDumps()
    {
        demo::RedisServerProcess::Options options;
        options.configText = "requirepass " + Canary + "\n";
        demo::RedisServerProcess secured;
        KEYLENS_START_SERVER(secured, options);
        QCOMPARE(test::fillStringKeys(secured.port(), 3000, 0, "k:", Canary), std::size_t(0));
        demo::RedisServerProcess open;
        KEYLENS_START_SERVER(open);
        QCOMPARE(test::fillStringKeys(open.port(), 3000, 0, "k:"), std::size_t(0));
        test::PlainClient securedAdmin(secured.port(), {}, Canary);
        test::PlainClient openAdmin(open.port());
        // Until the server has seen a SCAN after `scansBefore`: keylens-cli is past main()'s scrubbing of its arguments
        // and holds its password by then. (A fixed wait raced a loaded machine, where the loader alone can outlast it.)
        const auto untilScanning = [](QProcess& process, test::PlainClient& admin, long long scansBefore) {
            return QTest::qWaitFor(
                       [&] { return admin.commandCalls("scan") > scansBefore || process.state() != QProcess::Running; },
                       60'000) &&
                   process.state() == QProcess::Running;
        };

        QProcess running;
        const long long scans = securedAdmin.commandCalls("scan");
        test::startCli(running, {QStringLiteral("scan"), QStringLiteral("-p"), portOf(secured), QStringLiteral("-a"),
                                 QString::fromLatin1(Canary), QStringLiteral("--max-rate"), QStringLiteral("3000"),
                                 QStringLiteral("--no-auth-warning")});
        QVERIFY(untilScanning(running, securedAdmin, scans));
        const QByteArray shown = test::processCommandLine(running.processId());
        const QByteArray title = " scan -p " + QByteArray::number(secured.port()) +
                                 " -a *** --max-rate 3000 --no-auth-warning" + QByteArray(1, '\0');
        QVERIFY2(shown.endsWith(title), shown.constData());
        QCOMPARE(shown.count('\0'), 1); // one title: no padding whose length would tell the password's
        QCOMPARE(test::finishCli(running).exitCode, 0);

        // The core of a scan aborted mid-way; `admin` is a client of the server it scans.
        const auto coresAfterCrash = [&](const QStringList& arguments, test::PlainClient& admin) {
            QTemporaryDir folder;
            QProcess process;
            process.setWorkingDirectory(folder.path());
            process.setChildProcessModifier([] {
                const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
                ::setrlimit(RLIMIT_CORE, &unlimited);
            });
            const long long scansBefore = admin.commandCalls("scan");
            test::startCli(process, arguments + QStringList{QStringLiteral("--max-rate"), QStringLiteral("3000")});
            if (untilScanning(process, admin, scansBefore))
                ::kill(pid_t(process.processId()), SIGABRT);
            else
                qWarning("the scan ended before it could be aborted");
            test::finishCli(process);
            QByteArray cores;
            for (const QString& name : QDir(folder.path()).entryList({QStringLiteral("core*")}, QDir::Files)) {
                QFile core(folder.filePath(name));
                cores += core.open(QIODevice::ReadOnly) ? core.readAll() : QByteArray("unreadable");
            }
            return cores;
        };
        const QByteArray control =
            coresAfterCrash({QStringLiteral("scan"), QStringLiteral("-p"), portOf(open)}, openAdmin);
        if (control.isEmpty())
            QSKIP("this machine writes no core file into the working directory (see /proc/sys/kernel/core_pattern)");
        const QByteArray withPassword =
            coresAfterCrash({QStringLiteral("scan"), QStringLiteral("-p"), portOf(secured), QStringLiteral("-a"),
                             QString::fromLatin1(Canary), QStringLiteral("--no-auth-warning")},
                            securedAdmin);
        QVERIFY2(!withPassword.contains(Canary), "a core dump holds the password");
        QVERIFY2(withPassword.isEmpty(), "a process holding a password wrote a core dump");
        // From the environment too: the password is held, so no core.
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("REDISCLI_AUTH"), QString::fromLatin1(Canary));
        QTemporaryDir folder;
        QProcess process;
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(folder.path());
        process.setChildProcessModifier([] {
            const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
            ::setrlimit(RLIMIT_CORE, &unlimited);
        });
        const long long scansBefore = securedAdmin.commandCalls("scan");
        test::startCli(process, {QStringLiteral("scan"), QStringLiteral("-p"), portOf(secured),
                                 QStringLiteral("--max-rate"), QStringLiteral("3000")});
        QVERIFY(untilScanning(process, securedAdmin, scansBefore)); // connected: it holds the password
        ::kill(pid_t(process.processId()), SIGABRT);
        test::finishCli(process);
        QVERIFY(QDir(folder.path()).entryList({QStringLiteral("core*")}, QDir::Files).isEmpty());
    }

    void malformedUrisAreRedacted_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::newRow("http") << QStringLiteral("http://u:%1@127.0.0.1:6379").arg(QString::fromLatin1(Canary));
        QTest::newRow("one slash") << QStringLiteral("redis:/u:%1@host").arg(QString::fromLatin1(Canary));
        QTest::newRow("no colon") << QStringLiteral("redis//u:%1@host").arg(QString::fromLatin1(Canary));
        QTest::newRow("no scheme") << QStringLiteral("u:%1@host").arg(QString::fromLatin1(Canary));
        QTest::newRow("unclosed [") << QStringLiteral("redis://u:%1@[::1").arg(QString::fromLatin1(Canary));
        QTest::newRow("slash in password")
            << QStringLiteral("redis://u:%1/x@host:notaport").arg(QString::fromLatin1(Canary));
        QTest::newRow("no host") << QStringLiteral("redis://:@");
        // No '@': the password stands where the port goes, and must not be shown as "not a port number".
        QTest::newRow("user:password, no @") << QStringLiteral("redis://user:%1").arg(QString::fromLatin1(Canary));
        QTest::newRow("host:password, no @") << QStringLiteral("redis://127.0.0.1:%1").arg(QString::fromLatin1(Canary));
    }

    void malformedUrisAreRedacted()
    {
        QFETCH(QString, uri);
        const auto run = test::runCli({QStringLiteral("scan"), uri});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(!run.err.contains(Canary), run.err.constData());
        QVERIFY2(run.err.startsWith("keylens-cli: "), run.err.constData());
        const auto flag = test::runCli({QStringLiteral("scan"), QStringLiteral("-u"), uri});
        QCOMPARE(flag.exitCode, 2);
        QVERIFY2(!flag.err.contains(Canary), flag.err.constData());
    }

    // ---- 4. no figure that is a guess ----

    void aclUserThatMayOnlyScanAndType()
    {
        demo::RedisServerProcess::Options options;
        options.configText = "user scanner on >pw ~* resetchannels -@all +scan +type\n";
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server, options);
        fill(server, 50'000, 10'000);
        const auto run =
            test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(server), QStringLiteral("--user"),
                          QStringLiteral("scanner"), QStringLiteral("-a"), QStringLiteral("pw"),
                          QStringLiteral("--no-auth-warning"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(field(report, "totals.keys"), 50'000);
        // PTTL denied: the TTL is unknown, not absent.
        QCOMPARE(field(report, "totals.keys_ttl_unknown"), 50'000);
        // Not measured is not 0: the counts with and without a TTL are null, as is the memory no key had measured.
        const QJsonObject totals = report[QStringLiteral("totals")].toObject();
        QVERIFY(totals[QStringLiteral("keys_with_ttl")].isNull());
        QVERIFY(totals[QStringLiteral("keys_without_ttl")].isNull());
        QVERIFY(totals[QStringLiteral("ttl_share")].isNull());
        QVERIFY(totals[QStringLiteral("memory_bytes")].isNull());
        for (const QJsonValue& entry : report[QStringLiteral("namespaces")].toArray()) {
            QVERIFY(entry.toObject()[QStringLiteral("memory_bytes")].isNull());
            QVERIFY(entry.toObject()[QStringLiteral("keys_with_ttl")].isNull());
        }
        // TYPE allowed: every type known.
        QCOMPARE(field(report, "totals.types.string"), 50'000);
        QCOMPARE(field(report, "totals.types.unknown"), 0);
        QCOMPARE(field(report, "scan.keys_not_inspected"), 0);
        QVERIFY(everyKeyAccountedFor(report));
        QVERIFY(!report[QStringLiteral("scan")].toObject()[QStringLiteral("memory_measured")].toBool());

        // Found out once, then stopped asking: the server saw at most the batches already in flight.
        test::PlainClient admin(server.port());
        const QByteArray stats = admin.command({"INFO", "commandstats"});
        const qsizetype at = stats.indexOf("cmdstat_pttl:");
        QVERIFY(at >= 0);
        const QByteArray line = stats.mid(at, stats.indexOf('\r', at) - at);
        const qsizetype rejected = line.indexOf("rejected_calls=");
        const int rejectedCalls = line.mid(rejected + 15).split(',').first().toInt();
        qInfo("PTTL rejected %d times for 50,000 keys", rejectedCalls);
        QVERIFY2(rejectedCalls > 0 && rejectedCalls <= 3000, line.constData());

        const auto text = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(server),
                                        QStringLiteral("--user"), QStringLiteral("scanner"), QStringLiteral("-a"),
                                        QStringLiteral("pw"), QStringLiteral("--no-auth-warning")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("TTLs: not measured"), text.out.constData());
        QVERIFY(!text.out.contains("0.0% of keys have a TTL"));
    }

    void keyDenialsAreToldFromCommandDenials_data()
    {
        QTest::addColumn<QByteArray>("error");
        QTest::addColumn<bool>("wholeCommand");
        QTest::newRow("7.0 key") << QByteArray("-NOPERM this user has no permissions to access one of the keys used as "
                                               "arguments\r\n")
                                 << false;
        QTest::newRow("7.2 key") << QByteArray("-NOPERM No permissions to access a key\r\n") << false;
        QTest::newRow("7.0 command") << QByteArray("-NOPERM this user has no permissions to run the 'pttl' command\r\n")
                                     << true;
        QTest::newRow("7.2 command") << QByteArray("-NOPERM User scanner has no permissions to run the 'pttl' "
                                                   "command\r\n")
                                     << true;
    }

    void keyDenialsAreToldFromCommandDenials()
    {
        QFETCH(QByteArray, error);
        QFETCH(bool, wholeCommand);
        constexpr int Keys = 5000;
        // Key denials hit even keys only; a command denial hits them all.
        test::FakeRedis fake([&](const QList<QByteArray>& command) {
            return fakeScanServer(
                command, Keys, [&](int i) { return (wholeCommand || i % 2 == 0) ? error : QByteArray(":60000\r\n"); });
        });
        const auto run = runServing({QStringLiteral("scan"), QStringLiteral("-p"), QString::number(fake.port()),
                                     QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(field(report, "totals.keys"), Keys);
        QCOMPARE(field(report, "totals.types.string"), Keys); // TYPE answered: known, whatever PTTL did
        if (wholeCommand) {
            QCOMPARE(field(report, "totals.keys_ttl_unknown"), Keys);
            QVERIFY2(fake.count("PTTL") <= 3000, QByteArray::number(fake.count("PTTL")).constData());
        } else {
            QCOMPARE(field(report, "totals.keys_ttl_unknown"), Keys / 2);
            QCOMPARE(field(report, "totals.keys_with_ttl"), Keys / 2);
            QCOMPARE(fake.count("PTTL"), Keys); // a key denial is no reason to stop asking for the others
        }
    }

    // ---- 5. every key is accounted for ----

    void everyKeyIsAccountedForHoweverTheScanStops_data()
    {
        QTest::addColumn<QString>("stop");
        QTest::newRow("complete") << QStringLiteral("complete");
        QTest::newRow("server killed") << QStringLiteral("kill");
        QTest::newRow("CLIENT KILL, resumed") << QStringLiteral("client kill");
        QTest::newRow("Ctrl-C") << QStringLiteral("interrupt");
    }

    void everyKeyIsAccountedForHoweverTheScanStops()
    {
        QFETCH(QString, stop);
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        fill(server, 30'000);
        QProcess process;
        test::startCli(process, {QStringLiteral("scan"), QStringLiteral("-p"), portOf(server),
                                 QStringLiteral("--max-rate"), QStringLiteral("15000"), QStringLiteral("--format"),
                                 QStringLiteral("json"), QStringLiteral("--reconnect"), QStringLiteral("1")});
        QTest::qWait(1000);
        if (stop == QLatin1String("kill")) {
            ::kill(pid_t(server.processId()), SIGKILL);
        } else if (stop == QLatin1String("client kill")) {
            test::PlainClient admin(server.port());
            QVERIFY(admin.integer({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}) >= 1);
        } else if (stop == QLatin1String("interrupt")) {
            ::kill(pid_t(process.processId()), SIGINT);
        }
        const auto run = test::finishCli(process);
        const QJsonObject report = parseJson(run.out);
        QVERIFY2(!report.isEmpty(), run.err.constData());
        QVERIFY(everyKeyAccountedFor(report));
        if (stop == QLatin1String("complete") || stop == QLatin1String("client kill")) {
            // A killed connection is connected again and the scan resumes at its cursor: every key, once.
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(field(report, "scan.keys"), 30'000);
            QCOMPARE(field(report, "scan.keys_in_flight"), 0);
        } else {
            QCOMPARE(run.exitCode, stop == QLatin1String("interrupt") ? 130 : 1);
            QVERIFY(field(report, "scan.keys") < 30'000);
            QVERIFY(field(report, "scan.keys_seen") > field(report, "scan.keys"));
        }
    }

    // A user limited to `~user:*`: what it may not read is unknown, never 0. The namespace it cannot read has null
    // memory and TTL counts in the JSON and "n/a" in the text; the totals are a lower bound and say so; the delete
    // preview says "not measured" instead of "0 B" and "0 with a TTL".
    void unknownFiguresAreNeverZero()
    {
        demo::RedisServerProcess::Options options;
        options.configText = "user limited on >pw ~user:* +@all\n";
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server, options);
        fill(server, 500, 100, "user:");
        fill(server, 500, 100, "other:");
        test::PlainClient admin(server.port());
        std::vector<std::vector<QByteArray>> big;
        for (int i = 0; i < 20000; ++i)
            big.push_back({"SADD", "other:bigset", QByteArray::number(i) + QByteArray(40, 'm')});
        QCOMPARE(admin.pipeline(big), std::size_t(0));
        QVERIFY(admin.integer({"MEMORY", "USAGE", "other:bigset"}) > 1'000'000);
        const QStringList login = {
            QStringLiteral("-p"), portOf(server),       QStringLiteral("--user"),           QStringLiteral("limited"),
            QStringLiteral("-a"), QStringLiteral("pw"), QStringLiteral("--no-auth-warning")};
        const auto json = test::runCli(QStringList{QStringLiteral("scan")} + login +
                                       QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject report = parseJson(json.out);
        QCOMPARE(field(report, "totals.keys"), 1001);
        const QJsonObject totals = report[QStringLiteral("totals")].toObject();
        QVERIFY(totals[QStringLiteral("memory_bytes")].toInteger() > 0);
        QVERIFY(totals[QStringLiteral("memory_lower_bound")].toBool());
        int checked = 0;
        for (const QJsonValue& value : report[QStringLiteral("namespaces")].toArray()) {
            const QJsonObject entry = value.toObject();
            if (entry[QStringLiteral("name")].toString() == QLatin1String("other")) {
                QVERIFY(entry[QStringLiteral("memory_bytes")].isNull());
                QVERIFY(!entry[QStringLiteral("memory_lower_bound")].toBool());
                QVERIFY(entry[QStringLiteral("keys_with_ttl")].isNull());
                ++checked;
            } else if (entry[QStringLiteral("name")].toString() == QLatin1String("user")) {
                QVERIFY(entry[QStringLiteral("memory_bytes")].toInteger() > 0);
                QVERIFY(!entry[QStringLiteral("memory_lower_bound")].toBool());
                QCOMPARE(entry[QStringLiteral("keys_with_ttl")].toInteger(), 100);
                ++checked;
            }
        }
        QCOMPARE(checked, 2);
        const auto text = test::runCli(QStringList{QStringLiteral("scan")} + login);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(!text.out.contains(" 0 B "), text.out.constData());
        QVERIFY2(text.out.contains("\u2265 "), text.out.constData());
        bool otherRow = false;
        for (const QByteArray& line : text.out.split('\n')) {
            if (line.startsWith("other:")) {
                otherRow = true;
                QVERIFY2(line.contains("n/a"), line.constData());
            }
        }
        QVERIFY(otherRow);
        const auto preview = test::runCli(
            QStringList{QStringLiteral("delete")} + login +
            QStringList{QStringLiteral("--match"), QStringLiteral("other:*"), QStringLiteral("--dry-run")});
        QCOMPARE(preview.exitCode, 0);
        QVERIFY2(preview.err.contains("memory not measured; TTLs not measured"), preview.err.constData());
        QVERIFY2(!preview.err.contains("0 B") && !preview.err.contains("0 with a TTL"), preview.err.constData());
        QCOMPARE(admin.integer({"DBSIZE"}), 1001LL);
    }

    // A keyspace emptied or replaced mid-scan: the report is partial, exit 1, with the reason on stderr; not a
    // "complete" report of keys that are gone. The truth is the server's DBSIZE after the scan.
    void aKeyspaceThatVanishedMidScanIsNotComplete_data()
    {
        QTest::addColumn<bool>("refill");
        QTest::newRow("FLUSHALL") << false;
        QTest::newRow("FLUSHALL, then other keys") << true;
    }

    void aKeyspaceThatVanishedMidScanIsNotComplete()
    {
        QFETCH(bool, refill);
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        fill(server, 40'000);
        QProcess process;
        // Four seconds of scan at 10,000 keys a second, a quarter of them asked about: mid-scan, and so many stored
        // that the refill's keys the scan may still meet stay a small share of its sample.
        QVERIFY(scanUntilAsked(server, process, 10'000, 10'000));
        test::PlainClient admin(server.port());
        // Stopped while the keyspace changes: its end-of-scan check must not see the empty keyspace between the
        // FLUSHALL and the refill (on a loaded machine it once did, and said "emptied" for "replaced").
        QCOMPARE(::kill(pid_t(process.processId()), SIGSTOP), 0);
        QCOMPARE(admin.command({"FLUSHALL"}), QByteArray("OK"));
        if (refill)
            QCOMPARE(test::fillStringKeys(server.port(), 1000, 0, "other:"), std::size_t(0));
        QCOMPARE(::kill(pid_t(process.processId()), SIGCONT), 0);
        const auto run = test::finishCli(process);
        const QJsonObject report = parseJson(run.out);
        QVERIFY2(!report.isEmpty(), run.err.constData());
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("complete")).toBool(true), false);
        QVERIFY(field(report, "scan.keys") > admin.integer({"DBSIZE"}));
        QVERIFY2(run.err.contains(refill ? "replaced during the scan" : "emptied during the scan"),
                 run.err.constData());
    }

    // A server stopped mid-scan (SIGSTOP: the kernel still accepts connections, nothing answers) is given up on within
    // a minute of its last byte, with the default --command-timeout and --reconnect: the timeout said on stderr as
    // soon as it happens, the partial report marked, exit 1. (It took 297 s: a 30 s timeout per reconnect.)
    void aHungServerIsGivenUpOnWithinAMinute()
    {
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        fill(server, 40'000);
        QProcess process;
        QVERIFY(scanUntilAsked(server, process, 5'000, 2'000));
        const qint64 serverPid = server.processId();
        QVERIFY(serverPid > 0);
        QCOMPARE(::kill(pid_t(serverPid), SIGSTOP), 0);
        QElapsedTimer stopped;
        stopped.start();
        // Said while it still waits, not only at the end.
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += process.readAllStandardError()).contains("timed out"), 45'000);
        QCOMPARE(process.state(), QProcess::Running);
        QVERIFY(process.waitForFinished(70'000));
        const qint64 took = stopped.elapsed();
        ::kill(pid_t(serverPid), SIGCONT);
        err += process.readAllStandardError();
        QVERIFY2(took < 60'000, qPrintable(QStringLiteral("%1 ms after the server stopped").arg(took)));
        QCOMPARE(process.exitCode(), 1);
        QVERIFY2(err.contains("answered nothing for"), err.constData());
        const QJsonObject report = parseJson(process.readAllStandardOutput());
        QCOMPARE(report.value(QStringLiteral("scan")).toObject().value(QStringLiteral("complete")).toBool(true), false);
        QVERIFY(field(report, "scan.keys") > 0);
    }

    // ---- 6. say what the server said ----

    void serverReasonsAreKept()
    {
        {
            demo::RedisServerProcess::Options options;
            options.extraArguments = {QStringLiteral("--maxclients"), QStringLiteral("1")};
            demo::RedisServerProcess server;
            KEYLENS_START_SERVER(server, options);
            test::PlainClient occupant(server.port());
            QVERIFY(occupant.isConnected());
            const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(server)});
            QCOMPARE(run.exitCode, 3);
            QVERIFY2(run.err.contains("max number of clients reached"), run.err.constData());
        }
        {
            demo::RedisServerProcess::Options options;
            options.configText = "requirepass x\n";
            demo::RedisServerProcess server;
            KEYLENS_START_SERVER(server, options);
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("REDISCLI_AUTH"), QString(20'000, u'p')); // over-long, unauthenticated
            const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(server)}, environment);
            QCOMPARE(run.exitCode, 3);
            QVERIFY2(run.err.contains("Protocol error"), run.err.constData());
        }
        {
            test::FakeRedis protectedMode([](const QList<QByteArray>&) {
                return QByteArray("-DENIED Redis is running in protected mode because protected mode is enabled\r\n");
            });
            const auto run =
                runServing({QStringLiteral("scan"), QStringLiteral("-p"), QString::number(protectedMode.port())});
            QCOMPARE(run.exitCode, 3);
            QVERIFY2(run.err.contains("DENIED Redis is running in protected mode"), run.err.constData());
        }
    }

    // A cluster marked failed answers SCAN but every question about a key CLUSTERDOWN. When an empty SCAN batch came
    // between a batch and its answers, each retry counted as an answer and the scan retried for as long as the
    // cluster stayed down (a one-in-ten hang of tst_cluster, where SCAN's batches happened to fall so).
    void emptyScanBatchesDoNotRefillTheReconnectBudget()
    {
        test::FakeRedis failedCluster([](const QList<QByteArray>& command) {
            const QByteArray name = command.value(0).toUpper();
            if (name == "SCAN") {
                QList<QByteArray> names;
                if (command.value(1) == "0") {
                    for (int i = 0; i < 10; ++i)
                        names << test::FakeRedis::bulk("k:" + QByteArray::number(i));
                }
                const QByteArray next = command.value(1) == "0" ? "1" : command.value(1) == "1" ? "2" : "0";
                return test::FakeRedis::array({test::FakeRedis::bulk(next), test::FakeRedis::array(names)});
            }
            if (name == "TYPE" || name == "PTTL" || (name == "MEMORY" && command.value(2) != "keylens:probe"))
                return QByteArray("-CLUSTERDOWN The cluster is down\r\n");
            return fakeScanServer(command, 10, [](int) { return QByteArray(":-1\r\n"); });
        });
        QElapsedTimer clock;
        clock.start();
        const auto run =
            runServing({QStringLiteral("scan"), QStringLiteral("-p"), QString::number(failedCluster.port()),
                        QStringLiteral("--reconnect"), QStringLiteral("2")},
                       60000);
        QVERIFY2(clock.elapsed() < 20000, QByteArray::number(clock.elapsed()).constData());
        QVERIFY2(run.exitCode != 0, run.err.constData());
        QVERIFY2(run.err.contains("CLUSTERDOWN"), run.err.constData());
        QVERIFY2(failedCluster.count("TYPE") <= 3 * 10, QByteArray::number(failedCluster.count("TYPE")).constData());
    }

    void plainConnectionToATlsPort()
    {
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (openssl.isEmpty())
            QSKIP("openssl is not installed: no certificate for a TLS port");
        QTemporaryDir dir;
        QProcess makeCertificate;
        makeCertificate.setWorkingDirectory(dir.path());
        makeCertificate.start(openssl, {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                                        QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                                        QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=localhost"),
                                        QStringLiteral("-keyout"), QStringLiteral("key.pem"), QStringLiteral("-out"),
                                        QStringLiteral("cert.pem")});
        QVERIFY(makeCertificate.waitForFinished(30000) && makeCertificate.exitCode() == 0);
        const quint16 port = test::freeLoopbackPort();
        QProcess tlsServer;
        tlsServer.setWorkingDirectory(dir.path());
        tlsServer.start(demo::RedisServerProcess::findExecutable(),
                        {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--tls-port"),
                         QString::number(port), QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                         QStringLiteral("--tls-cert-file"), QStringLiteral("cert.pem"),
                         QStringLiteral("--tls-key-file"), QStringLiteral("key.pem"),
                         QStringLiteral("--tls-ca-cert-file"), QStringLiteral("cert.pem"), QStringLiteral("--save"),
                         QString(), QStringLiteral("--appendonly"), QStringLiteral("no")});
        QVERIFY(tlsServer.waitForStarted());
        QVERIFY(QTest::qWaitFor(
            [&] {
                QTcpSocket socket;
                socket.connectToHost(QHostAddress::LocalHost, port);
                return socket.waitForConnected(100);
            },
            10000));
        const auto run = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), QString::number(port)});
        tlsServer.terminate();
        tlsServer.waitForFinished();
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("TLS port"), run.err.constData());
    }

    void errorsBeforeAnyKeyExit3WithNothingOnStdout()
    {
        const quint16 deadPort = test::freeLoopbackPort();
        // A replica whose master is gone, told not to serve stale data: MASTERDOWN on the first SCAN.
        demo::RedisServerProcess::Options options;
        options.extraArguments = {QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"), QString::number(deadPort),
                                  QStringLiteral("--replica-serve-stale-data"), QStringLiteral("no")};
        demo::RedisServerProcess replica;
        KEYLENS_START_SERVER(replica, options);
        const auto masterDown = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(replica)});
        QCOMPARE(masterDown.exitCode, 3);
        QVERIFY(masterDown.out.isEmpty());
        QVERIFY2(masterDown.err.contains("MASTERDOWN"), masterDown.err.constData());

        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        const auto badDb = test::runCli(
            {QStringLiteral("scan"), QStringLiteral("-p"), portOf(server), QStringLiteral("-n"), QStringLiteral("99")});
        QCOMPARE(badDb.exitCode, 3);
        QVERIFY(badDb.out.isEmpty());
        QVERIFY2(badDb.err.contains("cannot use database 99"), badDb.err.constData());

        const auto noSocket =
            test::runCli({QStringLiteral("scan"), QStringLiteral("-s"), QStringLiteral("/tmp/keylens-none.sock")});
        QCOMPARE(noSocket.exitCode, 3);
        QVERIFY2(noSocket.err.contains("no socket at /tmp/keylens-none.sock"), noSocket.err.constData());
    }

    void staleReplicaAndEmptyPassword()
    {
        const quint16 deadPort = test::freeLoopbackPort();
        demo::RedisServerProcess::Options options;
        options.extraArguments = {QStringLiteral("--replicaof"), QStringLiteral("127.0.0.1"),
                                  QString::number(deadPort)};
        demo::RedisServerProcess replica;
        KEYLENS_START_SERVER(replica, options);
        const auto stale = test::runCli({QStringLiteral("scan"), QStringLiteral("-p"), portOf(replica),
                                         QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(stale.exitCode, 0);
        const QJsonArray notices =
            parseJson(stale.out)[QStringLiteral("scan")].toObject()[QStringLiteral("notices")].toArray();
        QVERIFY2(QJsonDocument(notices).toJson().contains("data may be stale"), stale.out.constData());

        // `redis://:@host` is no password: sending AUTH "" to a server without one would fail the login.
        demo::RedisServerProcess server;
        KEYLENS_START_SERVER(server);
        fill(server, 10);
        const auto empty =
            test::runCli({QStringLiteral("scan"), QStringLiteral("redis://:@127.0.0.1:") + portOf(server)});
        QCOMPARE(empty.exitCode, 0);
        QVERIFY2(empty.out.contains("Scanned 10 keys"), empty.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
