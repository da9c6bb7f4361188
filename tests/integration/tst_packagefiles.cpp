// What the package carries beside the binaries, checked against the binaries themselves: every option
// `keylens-cli <command> --help` prints is in the manual page (as man renders it) and in the bash, zsh and fish
// completions; bash and fish complete real command lines; the pages render without warnings; the desktop entry
// and the AppStream metainfo pass their validators; --version names the checkout's commit and the libraries.
#include "ui/GuiCommandLine.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <hiredis/hiredis.h>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QString& program, const QStringList& arguments, const QProcessEnvironment& environment = {})
{
    QProcess process;
    if (!environment.isEmpty())
        process.setProcessEnvironment(environment);
    process.start(program, arguments);
    Run result;
    if (!process.waitForFinished(60000))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString generated(const QString& name)
{
    return QStringLiteral(KEYLENS_PACKAGE_FILES) + u'/' + name;
}

QString readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The manual page as a reader sees it: rendered by man, wide enough that no option name is broken.
Run renderedManPage(const QString& page)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("MANWIDTH"), QStringLiteral("250"));
    environment.insert(QStringLiteral("MAN_KEEP_FORMATTING"), QString());
    environment.insert(QStringLiteral("MANPAGER"), QStringLiteral("cat"));
    environment.insert(QStringLiteral("GROFF_NO_SGR"), QStringLiteral("1"));
    Run man = run(QStringLiteral("man"), {QStringLiteral("--warnings"), QStringLiteral("-l"), page}, environment);
    man.out.remove(QRegularExpression(QStringLiteral(".\b"))); // overstrike bold and underline
    man.out.replace(QChar(0x2212), u'-');                      // a minus sign, where the locale draws one
    return man;
}

const QStringList commands = {QStringLiteral("scan"),   QStringLiteral("lint"),   QStringLiteral("demo"),
                              QStringLiteral("delete"), QStringLiteral("expire"), QStringLiteral("rename"),
                              QStringLiteral("restore")};

// The options a command's --help lists: "-h, --host <host>" gives -h and --host.
QStringList helpOptions(const QString& command)
{
    const Run help = run(QStringLiteral(KEYLENS_CLI_PATH), {command, QStringLiteral("--help")});
    QStringList options;
    static const QRegularExpression option(QStringLiteral("(?:^|[ ,])(--?[a-z][a-z-]*)"));
    for (const QString& line : help.out.split(u'\n')) {
        if (!line.startsWith(QStringLiteral("  -")))
            continue;
        const QString names = line.trimmed().section(QStringLiteral("  "), 0, 0);
        for (auto it = option.globalMatch(names); it.hasNext();)
            options += it.next().captured(1);
    }
    return options;
}

QStringList bashComplete(const QString& line)
{
    const QString script =
        QStringLiteral("source '%1'; COMP_WORDS=(%2); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                       "[[ '%2' == *' ' ]] && { COMP_WORDS+=(''); COMP_CWORD=$((COMP_CWORD + 1)); }; "
                       "_keylens_cli; printf '%s\\n' \"${COMPREPLY[@]}\"")
            .arg(generated(QStringLiteral("completions/keylens-cli.bash")), line);
    return run(QStringLiteral("bash"), {QStringLiteral("-c"), script}).out.split(u'\n', Qt::SkipEmptyParts);
}

} // namespace

class TestPackageFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void manualPagesRenderWithoutWarnings_data()
    {
        QTest::addColumn<QString>("page");
        QTest::newRow("keylens") << generated(QStringLiteral("man/keylens.1"));
        QTest::newRow("keylens-cli") << generated(QStringLiteral("man/keylens-cli.1"));
    }
    void manualPagesRenderWithoutWarnings()
    {
        QFETCH(QString, page);
        const Run man = renderedManPage(page);
        QCOMPARE(man.exitCode, 0);
        QVERIFY2(man.err.trimmed().isEmpty(), qPrintable(man.err));
        for (const char* section : {"NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "ENVIRONMENT", "FILES"})
            QVERIFY2(man.out.contains(u'\n' + QLatin1String(section) + u'\n'), section);
    }

    void everyOptionOfHelpIsInTheManualAndTheCompletions()
    {
        const QString manual = renderedManPage(generated(QStringLiteral("man/keylens-cli.1"))).out;
        const QString bash = readAll(generated(QStringLiteral("completions/keylens-cli.bash")));
        const QString zsh = readAll(generated(QStringLiteral("completions/_keylens-cli")));
        const QString fish = readAll(generated(QStringLiteral("completions/keylens-cli.fish")));
        int checked = 0;
        for (const QString& command : commands) {
            const QStringList options = helpOptions(command);
            QVERIFY2(options.size() >= 3, qPrintable(command));
            QVERIFY2(manual.contains(QStringLiteral("keylens-cli %1 ").arg(command)), qPrintable(command));
            for (const QString& option : options) {
                ++checked;
                // In the manual, as an option entry: at the start of a line, or after another name of it.
                const QRegularExpression entry(
                    QStringLiteral("(^\\s*|, )%1( |,|$)").arg(QRegularExpression::escape(option)),
                    QRegularExpression::MultilineOption);
                QVERIFY2(manual.contains(entry), qPrintable(command + u' ' + option));
                QVERIFY2(bash.contains(option), qPrintable(command + u' ' + option));
                QVERIFY2(zsh.contains(u'\'' + option), qPrintable(command + u' ' + option));
                const QString fishName = option.startsWith(QStringLiteral("--"))
                                             ? QStringLiteral(" -l ") + option.mid(2)
                                             : QStringLiteral(" -s ") + option.mid(1);
                QVERIFY2(fish.contains(fishName), qPrintable(command + u' ' + option));
            }
        }
        QVERIFY(checked > 150);
        // The exit codes scripts rely on, and the environment.
        for (const char* text : {"130", "REDISCLI_AUTH", "REDIS_URL"})
            QVERIFY2(manual.contains(QLatin1String(text)), text);
    }

    void guiManualListsEveryOptionOfItsHelp()
    {
        const QString manual = renderedManPage(generated(QStringLiteral("man/keylens.1"))).out;
        const Run help = run(QStringLiteral(KEYLENS_GUI_PATH), {QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        static const QRegularExpression option(QStringLiteral("^  (--?[a-z][a-z-]*)"),
                                               QRegularExpression::MultilineOption);
        int checked = 0;
        for (auto it = option.globalMatch(help.out); it.hasNext();) {
            const QString name = it.next().captured(1);
            ++checked;
            const QRegularExpression entry(QStringLiteral("(^\\s*|, )%1( |,|$)").arg(QRegularExpression::escape(name)),
                                           QRegularExpression::MultilineOption);
            QVERIFY2(manual.contains(entry), qPrintable(name));
        }
        QVERIFY2(checked > 30, qPrintable(QString::number(checked)));
    }

    // A desktop entry runs `keylens %u` with the link: redis:// and rediss:// open that server, over TLS for rediss.
    void guiOpensTheLinkItIsGiven_data()
    {
        QTest::addColumn<QString>("link");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<int>("db");
        QTest::addColumn<bool>("tls");
        QTest::newRow("redis") << QStringLiteral("redis://cache.internal:6390/4") << QStringLiteral("cache.internal")
                               << 6390 << 4 << false;
        QTest::newRow("rediss") << QStringLiteral("rediss://app@10.0.0.5:6380/2") << QStringLiteral("10.0.0.5") << 6380
                                << 2 << true;
    }
    void guiOpensTheLinkItIsGiven()
    {
        QFETCH(QString, link);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(int, db);
        QFETCH(bool, tls);
        const keylens::ui::GuiCommandResult parsed =
            keylens::ui::parseGuiCommandLine({QStringLiteral("keylens"), link});
        QVERIFY2(parsed.command, qPrintable(parsed.output));
        QCOMPARE(parsed.command->start, keylens::ui::GuiCommand::Start::Target);
        const keylens::redis::ConnectionOptions& options = parsed.command->target.options;
        QCOMPARE(options.host, host);
        QCOMPARE(int(options.port), port);
        QCOMPARE(options.db, db);
        QCOMPARE(options.tls.enabled, tls);
        // A link that is no URI is a usage error, not a crash or a guess.
        const keylens::ui::GuiCommandResult bad =
            keylens::ui::parseGuiCommandLine({QStringLiteral("keylens"), QStringLiteral("http://example.com/")});
        QVERIFY(!bad.command);
        QCOMPARE(bad.exitCode, 2);
    }

    void bashCompletesCommandLines()
    {
        QCOMPARE(bashComplete(QStringLiteral("keylens-cli re")),
                 (QStringList{QStringLiteral("rename"), QStringLiteral("restore")}));
        QCOMPARE(bashComplete(QStringLiteral("keylens-cli lint --fo")), QStringList{QStringLiteral("--format")});
        QCOMPARE(bashComplete(QStringLiteral("keylens-cli lint --format ")),
                 (QStringList{QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("sarif"),
                              QStringLiteral("junit")}));
        QCOMPARE(bashComplete(QStringLiteral("keylens-cli scan --speed g")), QStringList{QStringLiteral("gentle")});
        // A file option completes file names.
        const QStringList files =
            bashComplete(QStringLiteral("keylens-cli scan --output ") + QStringLiteral(KEYLENS_PACKAGE_FILES) +
                         QStringLiteral("/man/keylens-c"));
        QVERIFY2(files.contains(generated(QStringLiteral("man/keylens-cli.1"))), qPrintable(files.join(u' ')));
    }

    void fishCompletesAndZshParses()
    {
        const QString fishFile = generated(QStringLiteral("completions/keylens-cli.fish"));
        const Run fish = run(QStringLiteral("fish"),
                             {QStringLiteral("-c"),
                              QStringLiteral("source '%1'; complete -C'keylens-cli lint --fail-on w'").arg(fishFile)});
        QCOMPARE(fish.exitCode, 0);
        QVERIFY2(fish.out.startsWith(QStringLiteral("warning")), qPrintable(fish.out + fish.err));
        const Run commandsListed =
            run(QStringLiteral("fish"),
                {QStringLiteral("-c"), QStringLiteral("source '%1'; complete -C'keylens-cli '").arg(fishFile)});
        for (const QString& command : commands)
            QVERIFY2(commandsListed.out.contains(u'\n' + command + u'\t') ||
                         commandsListed.out.startsWith(command + u'\t'),
                     qPrintable(command + u'\n' + commandsListed.out));
        const Run zsh =
            run(QStringLiteral("zsh"), {QStringLiteral("-n"), generated(QStringLiteral("completions/_keylens-cli"))});
        QCOMPARE(zsh.exitCode, 0);
        QVERIFY2(zsh.err.isEmpty(), qPrintable(zsh.err));
    }

    void desktopEntryAndMetainfoValidate()
    {
        const Run desktop = run(QStringLiteral("desktop-file-validate"), {QStringLiteral(KEYLENS_DESKTOP_FILE)});
        QCOMPARE(desktop.exitCode, 0);
        QVERIFY2(desktop.out.isEmpty() && desktop.err.isEmpty(), qPrintable(desktop.out + desktop.err));
        QVERIFY(readAll(QStringLiteral(KEYLENS_DESKTOP_FILE)).contains(QStringLiteral("x-scheme-handler/rediss;")));
        const Run metainfo =
            run(QStringLiteral("appstreamcli"), {QStringLiteral("validate"), QStringLiteral("--no-net"),
                                                 generated(QStringLiteral("io.github.keylens.Keylens.metainfo.xml"))});
        QVERIFY2(metainfo.exitCode == 0, qPrintable(metainfo.out + metainfo.err));
        const QString xml = readAll(generated(QStringLiteral("io.github.keylens.Keylens.metainfo.xml")));
        QVERIFY(xml.contains(QStringLiteral("<screenshot type=\"default\">")));
        QVERIFY(xml.contains(QStringLiteral("<release version=\"%1\"").arg(QStringLiteral(KEYLENS_VERSION))));
    }

    void versionNamesCommitQtAndHiredis_data()
    {
        QTest::addColumn<QString>("program");
        QTest::newRow("keylens-cli") << QStringLiteral(KEYLENS_CLI_PATH);
        QTest::newRow("keylens") << QStringLiteral(KEYLENS_GUI_PATH);
    }
    void versionNamesCommitQtAndHiredis()
    {
        QFETCH(QString, program);
        const Run version = run(program, {QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        const Run head = run(QStringLiteral("git"),
                             {QStringLiteral("-C"), QStringLiteral(KEYLENS_SOURCE_DIR), QStringLiteral("rev-parse"),
                              QStringLiteral("--short=12"), QStringLiteral("HEAD")});
        const QString commit = head.exitCode == 0 ? head.out.trimmed() : QStringLiteral("unknown");
        QVERIFY2(
            version.out.startsWith(QStringLiteral("%1 %2 (commit %3")
                                       .arg(QFileInfo(program).fileName(), QStringLiteral(KEYLENS_VERSION), commit)),
            qPrintable(version.out));
        QVERIFY2(version.out.contains(QStringLiteral("Qt %1").arg(QString::fromLatin1(qVersion()))),
                 qPrintable(version.out));
        QVERIFY2(version.out.contains(
                     QStringLiteral("hiredis %1.%2.%3").arg(HIREDIS_MAJOR).arg(HIREDIS_MINOR).arg(HIREDIS_PATCH)),
                 qPrintable(version.out));
    }
};

QTEST_MAIN(TestPackageFiles)
#include "tst_packagefiles.moc"
