#include "ui/GuiCommandLine.h"

#include "demo/DemoKeyspace.h"
#include "keyspace/Units.h"
#include "lint/ProfileFile.h"
#include "redis/ConnectionArguments.h"
#include "redis/HiredisVersion.h"
#include "scan/MemorySampling.h"
#include "scan/RdbFileScan.h"
#include "usage/OptionValues.h"
#include "usage/Version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QProcessEnvironment>

namespace keylens::ui {

QStringList screenshotViews()
{
    return {QStringLiteral("tree"),     QStringLiteral("patterns"), QStringLiteral("charts"), QStringLiteral("treemap"),
            QStringLiteral("findings"), QStringLiteral("server"),   QStringLiteral("shards")};
}

usage::Program guiProgram()
{
    usage::Command command;
    command.description = QCoreApplication::translate(
        "GuiCommandLine",
        "Keylens: a desktop browser for Redis keyspaces. With no connection given, it opens on a welcome page: "
        "saved and recent connections, the local server, the demo.");
    command.arguments = {{QStringLiteral("uri"),
                          QStringLiteral("The server to open: redis://[user[:password]@]host[:port][/db], rediss://… "
                                         "(TLS) or unix:///path/redis.sock[?db=N]."),
                          QStringLiteral("[uri]")}};
    command.options = {
        {QStringLiteral("demo"),
         QCoreApplication::translate("GuiCommandLine",
                                     "Start a private redis-server with a realistic, messy keyspace and "
                                     "browse it. The server stops when the window closes.")},
        {QStringLiteral("demo-keys"),
         QCoreApplication::translate("GuiCommandLine", "Keys in the demo keyspace (default 200000)."),
         QStringLiteral("n")},
        {QStringLiteral("demo-port"),
         QCoreApplication::translate("GuiCommandLine", "The demo server's port (default: a free one)."),
         QStringLiteral("port")},
        {QStringLiteral("connection"),
         QCoreApplication::translate("GuiCommandLine", "Open a saved connection by name."), QStringLiteral("name")},
        {QStringLiteral("delimiter"),
         QCoreApplication::translate(
             "GuiCommandLine", "The bytes that split key names into namespaces: one or several, as ':/' (default :)."),
         QStringLiteral("d")},
        {QStringLiteral("profile"),
         QCoreApplication::translate(
             "GuiCommandLine",
             "The naming convention to check the keys against: default, strict or a JSON profile file "
             "(see keylens-cli lint)."),
         QStringLiteral("name|file")},
        {QStringLiteral("screenshot"),
         QCoreApplication::translate("GuiCommandLine", "After the scan, render the window to a PNG file and exit."),
         QStringLiteral("file")},
        {QStringLiteral("select"),
         QCoreApplication::translate(
             "GuiCommandLine",
             "With --screenshot: the namespace (bull or bull:), key or pattern (user:<int>:profile, with "
             "--view patterns) to select."),
         QStringLiteral("path")},
        {QStringLiteral("view"),
         QCoreApplication::translate(
             "GuiCommandLine",
             "With --screenshot: the view to render: tree (the default), patterns (ids folded), charts "
             "(of the selection), treemap, findings (the Findings panel), server (the Server tab, from "
             "INFO) or shards (a cluster's Shards tab)."),
         QStringLiteral("view")},
        {QStringLiteral("size"),
         QCoreApplication::translate("GuiCommandLine", "Window size for --screenshot (default 1280x800)."),
         QCoreApplication::translate("GuiCommandLine", "WxH")},
        {QStringLiteral("max-rate"),
         QCoreApplication::translate("GuiCommandLine",
                                     "Scan at most this many keys per second, to spare a busy server."),
         QStringLiteral("keys/s")},
        {QStringLiteral("sample"),
         QCoreApplication::translate(
             "GuiCommandLine",
             "Measure memory on a uniform random sample of about N keys and estimate each namespace's, "
             "with its error bound."),
         QStringLiteral("n")},
        {QStringLiteral("exact-memory"),
         QCoreApplication::translate(
             "GuiCommandLine",
             "Measure big collections whole (MEMORY USAGE … SAMPLES 0, up to %1 elements) instead of the "
             "server's estimate from 5 elements; also Scan > Measure big collections whole.")
             .arg(QString::fromUtf8(keyspace::formatCount(scan::DefaultExactMemoryCap)))},
        {QStringLiteral("speed"),
         QCoreApplication::translate(
             "GuiCommandLine",
             "Scan speed: full or gentle (default: full on loopback and Unix sockets, gentle elsewhere)."),
         QStringLiteral("full|gentle")},
        {QStringLiteral("ttl-from"),
         QCoreApplication::translate("GuiCommandLine",
                                     "An RDB file's TTLs as they were when it was saved (saved, the default) or as "
                                     "they are now (now); also Scan > TTLs as of the save."),
         QStringLiteral("saved|now")},
        {QStringLiteral("palette"),
         QCoreApplication::translate("GuiCommandLine", "dark or light instead of the system's palette."),
         QStringLiteral("name")},
        {QStringList{QStringLiteral("help"), QStringLiteral("?")},
         QCoreApplication::translate("GuiCommandLine", "Show this help.")},
        {QStringLiteral("version"),
         QCoreApplication::translate(
             "GuiCommandLine", "Show the version, the commit it was built from, and the Qt and hiredis versions.")},
    };
    command.groups = {
        {QCoreApplication::translate("GuiCommandLine", "Connection options"), redis::connectionOptions()}};

    usage::Program program;
    program.name = QStringLiteral("keylens");
    program.summary = QCoreApplication::translate("GuiCommandLine", "a desktop browser for Redis keyspaces");
    program.description = QStringLiteral(
        "Keylens scans a whole Redis keyspace in the background (SCAN with pipelined TYPE, PTTL and MEMORY USAGE; "
        "every shard of a cluster at once) and shows it as a tree split on ':', with the memory, TTLs and "
        "naming-convention findings of every namespace, live as the scan goes. Id segments fold into patterns "
        "(user:<id>:profile); charts and a treemap show where the memory goes; values can be read and edited.\n\n"
        "Given a URI (a desktop entry passes redis:// and rediss:// links) or the connection flags of redis-cli, "
        "it connects and scans at once; with nothing, it opens on a welcome page.");
    program.commands = {command};
    program.exitCodes = {
        {QStringLiteral("0"),
         QCoreApplication::translate("GuiCommandLine",
                                     "The window was closed, or --help, --version or --screenshot ended well.")},
        {QStringLiteral("1"),
         QCoreApplication::translate(
             "GuiCommandLine", "--screenshot could not show what was asked (--select found nothing, --view shards on a "
                               "single server) or could not write its file.")},
        {QStringLiteral("2"),
         QCoreApplication::translate("GuiCommandLine", "Bad arguments, a URI that cannot be parsed included.")},
        {QStringLiteral("3"),
         QCoreApplication::translate("GuiCommandLine", "--screenshot: the server could not be reached or read.")},
    };
    program.environment = {
        {QStringLiteral("REDIS_URL"),
         QCoreApplication::translate("GuiCommandLine",
                                     "The server to open when no URI and no connection flag is given.")},
        {QStringLiteral("REDISCLI_AUTH"),
         QCoreApplication::translate("GuiCommandLine", "The password, as redis-cli takes it.")},
        {QCoreApplication::translate("GuiCommandLine", "LANGUAGE, LC_ALL, LC_MESSAGES, LANG"),
         QCoreApplication::translate("GuiCommandLine",
                                     "The language of the window, when a translation for it is installed.")},
        {QStringLiteral("QT_QPA_PLATFORM"),
         QCoreApplication::translate("GuiCommandLine",
                                     "The Qt platform: offscreen renders --screenshot without a display.")},
    };
    program.files = {
        {QStringLiteral("~/.config/keylens/keylens.conf"),
         QCoreApplication::translate("GuiCommandLine",
                                     "Saved and recent connections (without their passwords), the window's layout.")},
        {QCoreApplication::translate("GuiCommandLine", "The desktop's keyring (Secret Service)"),
         QCoreApplication::translate("GuiCommandLine",
                                     "Saved connections' passwords, when the user asks to save them.")},
        {QStringLiteral("~/.local/share/keylens/backups/"),
         QCoreApplication::translate("GuiCommandLine",
                                     "The DUMP backups written before a delete or rename from the window.")},
        {QStringLiteral("~/.ssh/config, ~/.ssh/known_hosts"),
         QCoreApplication::translate("GuiCommandLine", "With --ssh, the system's ssh reads its own configuration and "
                                                       "known hosts (unless --ssh-known-hosts).")},
        {QStringLiteral("/usr/share/keylens/translations/"),
         QCoreApplication::translate("GuiCommandLine", "The translations of the window.")},
    };
    program.examples = {
        {QStringLiteral("keylens --demo"),
         QCoreApplication::translate("GuiCommandLine", "Browse a private demo server with a messy keyspace.")},
        {QStringLiteral("keylens rediss://default@cache.example.com:6380/0"),
         QCoreApplication::translate(
             "GuiCommandLine", "Open a server over TLS (the password is asked for, or taken from REDISCLI_AUTH).")},
        {QCoreApplication::translate("GuiCommandLine", "keylens --demo --screenshot tree.png --view patterns"),
         QCoreApplication::translate("GuiCommandLine", "Render the pattern view of the demo to a PNG file.")},
    };
    program.seeAlso = {QStringLiteral("keylens-cli(1)"), QStringLiteral("redis-cli(1)")};
    return program;
}

GuiCommandResult parseGuiCommandLine(const QStringList& arguments)
{
    QCommandLineParser parser;
    guiProgram().commands.front().addTo(parser);
    const QString demo = QStringLiteral("demo");
    const QString demoKeys = QStringLiteral("demo-keys");
    const QString demoPort = QStringLiteral("demo-port");
    const QString connection = QStringLiteral("connection");
    const QString delimiter = QStringLiteral("delimiter");
    const QString screenshot = QStringLiteral("screenshot");
    const QString select = QStringLiteral("select");
    const QString view = QStringLiteral("view");
    const QString profile = QStringLiteral("profile");
    const QString size = QStringLiteral("size");
    const QString maxRate = QStringLiteral("max-rate");
    const QString sample = QStringLiteral("sample");
    const QString speed = QStringLiteral("speed");
    const QString exactMemory = QStringLiteral("exact-memory");
    const QString palette = QStringLiteral("palette");
    const QString ttlFrom = QStringLiteral("ttl-from");
    const QString help = QStringLiteral("help");
    const QString version = QStringLiteral("version");

    GuiCommandResult result;
    auto usage = [&](const QString& message) {
        result.exitCode = 2;
        result.output =
            QCoreApplication::translate("GuiCommandLine", "keylens: %1\nTry 'keylens --help'.\n").arg(message);
        return result;
    };
    if (!parser.parse(arguments))
        return usage(parser.errorText());
    if (parser.isSet(help)) {
        result.output = parser.helpText();
        return result;
    }
    if (parser.isSet(version)) {
        result.output =
            usage::versionText(QStringLiteral("keylens"), {{QStringLiteral("hiredis"), redis::hiredisVersion()}});
        return result;
    }

    // Printed by main() with the other output; the argv is clean from here on.
    result.warning = redis::hidePasswordsGivenOnCommandLine(parser);
    GuiCommand command;
    if (parser.isSet(delimiter)) {
        const std::optional<keyspace::Delimiters> parsed =
            keyspace::Delimiters::parse(parser.value(delimiter).toUtf8());
        if (!parsed)
            return usage(QCoreApplication::translate("GuiCommandLine",
                                                     "--delimiter takes bytes to split keys on, each once (':', ':/', "
                                                     "\\t, \\xHH), not '%1'")
                             .arg(parser.value(delimiter)));
        command.target.delimiter = *parsed;
    }
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(u'x');
        bool okW = false;
        bool okH = false;
        const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
        const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
        if (!okW || !okH || w < 400 || h < 300 || w > 8000 || h > 8000)
            return usage(
                QCoreApplication::translate("GuiCommandLine", "--size takes WIDTHxHEIGHT (at least 400x300), not '%1'")
                    .arg(parser.value(size)));
        command.windowSize = QSize(w, h);
    }
    if (parser.isSet(palette)) {
        command.palette = parser.value(palette);
        if (command.palette != QStringLiteral("dark") && command.palette != QStringLiteral("light"))
            return usage(QCoreApplication::translate("GuiCommandLine", "--palette takes dark or light"));
    }
    if (parser.isSet(maxRate)) {
        const std::optional<double> rate = usage::parseRate(parser.value(maxRate));
        if (!rate)
            return usage(QCoreApplication::translate("GuiCommandLine", "--max-rate takes keys per second, not '%1'")
                             .arg(parser.value(maxRate)));
        command.target.maxKeysPerSecond = *rate;
    }
    if (parser.isSet(sample)) {
        const std::optional<std::uint64_t> count = usage::parseCount(parser.value(sample));
        if (!count)
            return usage(
                QCoreApplication::translate("GuiCommandLine", "--sample takes a number of keys of at least 1, not '%1'")
                    .arg(parser.value(sample)));
        command.target.sampleSize = *count;
    }
    if (parser.isSet(speed)) {
        command.target.speed = scan::parseSpeed(parser.value(speed));
        if (!command.target.speed)
            return usage(QCoreApplication::translate("GuiCommandLine", "--speed takes full or gentle, not '%1'")
                             .arg(parser.value(speed)));
    }
    command.target.exactMemory = parser.isSet(exactMemory);
    // An option that only means something beside another is refused without it, never ignored: --select, --view and
    // --size do nothing without --screenshot (the window keeps its own size), --demo-keys and --demo-port nothing
    // without --demo.
    const std::pair<const QString&, const QString&> partners[] = {
        {select, screenshot}, {view, screenshot}, {size, screenshot}, {demoKeys, demo}, {demoPort, demo}};
    for (const auto& [option, partner] : partners) {
        if (parser.isSet(option) && !parser.isSet(partner))
            return usage(QCoreApplication::translate("GuiCommandLine", "--%1 goes with --%2").arg(option, partner));
    }
    if (parser.isSet(view) && !screenshotViews().contains(parser.value(view)))
        return usage(QCoreApplication::translate("GuiCommandLine", "--view takes %1, not '%2'")
                         .arg(screenshotViews().join(QStringLiteral(", ")), parser.value(view)));
    command.view = parser.value(view);
    if (parser.isSet(profile)) {
        // Checked now so that a typo is a usage error (2) before any window opens, as in keylens-cli.
        QString error;
        if (!lint::loadProfile(parser.value(profile), &error))
            return usage(QCoreApplication::translate("GuiCommandLine", "--profile: %1").arg(error));
        command.lintProfile = parser.value(profile);
    }
    command.screenshotFile = parser.value(screenshot);
    command.selectPath = parser.value(select).toUtf8();

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return usage(
            QCoreApplication::translate("GuiCommandLine", "one URI at most, not %1 arguments").arg(positional.size()));
    // A file to read offline (`keylens dump.rdb`, or a pipe: `keylens <(gunzip -c dump.rdb.gz)`), not a server's URI.
    const QFileInfo path(positional.value(0));
    const bool rdbFile = !positional.isEmpty() &&
                         ((path.exists() && !path.isDir()) || positional.front().endsWith(QLatin1String(".rdb")));
    // A file's database is chosen with -n as a server's is; no other connection flag goes with it.
    if (rdbFile && redis::anyConnectionFlagGiven(parser, /*databaseToo=*/false))
        return usage(QCoreApplication::translate("GuiCommandLine",
                                                 "an RDB file is read offline: -n picks its database, and no other "
                                                 "connection flag goes with it"));
    const bool connectionFlags = !positional.isEmpty() || redis::connectionArgumentsGiven(parser);
    if (parser.isSet(ttlFrom) && !rdbFile)
        return usage(QCoreApplication::translate("GuiCommandLine", "--ttl-from goes with an RDB file"));
    if (parser.isSet(demo) + connectionFlags + parser.isSet(connection) > 1)
        return usage(QCoreApplication::translate("GuiCommandLine",
                                                 "choose one of --demo, --connection and a server to connect to"));

    if (parser.isSet(demo)) {
        command.start = GuiCommand::Start::Demo;
        if (parser.isSet(demoKeys)) {
            const std::optional<std::uint64_t> count =
                usage::parseCount(parser.value(demoKeys), 1, demo::DemoOptions::MaximumKeys);
            if (!count)
                return usage(QCoreApplication::translate("GuiCommandLine", "--demo-keys takes a number from 1 to %1")
                                 .arg(demo::DemoOptions::MaximumKeys));
            command.demoKeys = *count;
        }
        if (parser.isSet(demoPort)) {
            const std::optional<std::uint64_t> port = usage::parseCount(parser.value(demoPort), 1, 65535);
            if (!port)
                return usage(QCoreApplication::translate("GuiCommandLine", "--demo-port takes a port from 1 to 65535"));
            command.demoPort = quint16(*port);
        }
    } else if (rdbFile) {
        // A file is read as fast as the disk gives it, whole: these ask how hard to lean on a server.
        // --exact-memory too: a file's memory is modelled from its encodings, nothing is sampled there.
        for (const QString& serverOnly : {speed, maxRate, sample, exactMemory}) {
            if (parser.isSet(serverOnly))
                return usage(QCoreApplication::translate("GuiCommandLine",
                                                         "--%1 does not apply to an RDB file: it reads no server")
                                 .arg(serverOnly));
        }
        if (!QFileInfo(positional.front()).isReadable())
            return usage(
                QCoreApplication::translate("GuiCommandLine", "cannot read the RDB file %1").arg(positional.front()));
        command.start = GuiCommand::Start::Target;
        const MainWindow::Target settings = command.target; // --delimiter given before
        command.target = models::ConnectionTarget::offlineFile(positional.front());
        command.target.delimiter = settings.delimiter;
        const redis::Result<int> db = redis::databaseArgument(parser, 0);
        if (!db)
            return usage(db.error().message);
        command.target.options.db = *db;
        if (parser.isSet(ttlFrom)) {
            command.target.ttlFromSave = usage::parseTtlFromSave(parser.value(ttlFrom));
            if (!command.target.ttlFromSave)
                return usage(QCoreApplication::translate("GuiCommandLine", "--ttl-from takes saved or now"));
        }
    } else if (parser.isSet(connection)) {
        command.start = GuiCommand::Start::Saved;
        command.savedConnection = parser.value(connection);
    } else if (connectionFlags ||
               !QProcessEnvironment::systemEnvironment().value(QStringLiteral("REDIS_URL")).isEmpty()) {
        // --askpass asks in a dialog: the window's own terminal may be none.
        const auto askPassword = []() -> std::optional<QByteArray> {
            bool ok = false;
            const QString typed = QInputDialog::getText(
                nullptr, QCoreApplication::translate("GuiCommandLine", "Keylens"),
                QCoreApplication::translate("GuiCommandLine", "Password:"), QLineEdit::Password, QString(), &ok);
            return ok ? std::optional<QByteArray>(typed.toUtf8()) : std::nullopt;
        };
        redis::Result<redis::ConnectionOptions> options = redis::connectionOptionsFrom(
            parser, positional.value(0), QProcessEnvironment::systemEnvironment(), askPassword);
        if (!options)
            return usage(options.error().message);
        command.start = GuiCommand::Start::Target;
        command.target.options = *options;
    }
    if (!command.screenshotFile.isEmpty() && command.start == GuiCommand::Start::Welcome)
        return usage(QCoreApplication::translate(
            "GuiCommandLine", "--screenshot needs a server (a URI, the connection flags or --demo)"));
    result.command = command;
    return result;
}

} // namespace keylens::ui
