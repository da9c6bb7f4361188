#include "ui/GuiCommandLine.h"

#include "lint/ProfileFile.h"
#include "redis/ConnectionArguments.h"

#include <QCommandLineParser>
#include <QInputDialog>
#include <QLineEdit>
#include <QProcessEnvironment>

namespace keylens::ui {

QStringList screenshotViews()
{
    return {QStringLiteral("tree"),     QStringLiteral("patterns"), QStringLiteral("charts"), QStringLiteral("treemap"),
            QStringLiteral("findings"), QStringLiteral("server"),   QStringLiteral("shards")};
}

GuiCommandResult parseGuiCommandLine(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Keylens: a desktop browser for Redis keyspaces. With no connection given, it opens on a "
                       "welcome page: saved and recent connections, the local server, the demo."));
    parser.addPositionalArgument(QStringLiteral("uri"), QStringLiteral("redis://[user[:password]@]host[:port][/db]"),
                                 QStringLiteral("[uri]"));
    redis::addConnectionOptions(parser);
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Start a private redis-server with a realistic, messy keyspace and "
                                                 "browse it. The server stops when the window closes."));
    const QCommandLineOption demoKeys(QStringLiteral("demo-keys"),
                                      QStringLiteral("Keys in the demo keyspace (default 200000)."),
                                      QStringLiteral("n"));
    const QCommandLineOption demoPort(QStringLiteral("demo-port"),
                                      QStringLiteral("The demo server's port (default: a free one)."),
                                      QStringLiteral("port"));
    const QCommandLineOption connection(QStringLiteral("connection"),
                                        QStringLiteral("Open a saved connection by name."), QStringLiteral("name"));
    const QCommandLineOption delimiter(QStringLiteral("delimiter"),
                                       QStringLiteral("The byte that splits key names into namespaces (default :)."),
                                       QStringLiteral("d"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("After the scan, render the window to a PNG file and exit."),
                                        QStringLiteral("file"));
    const QCommandLineOption select(QStringLiteral("select"),
                                    QStringLiteral("With --screenshot: the namespace (bull or bull:), key or pattern "
                                                   "(user:<int>:profile, with --view patterns) to select."),
                                    QStringLiteral("path"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("With --screenshot: the view to render: tree (the default), patterns "
                       "(ids folded), charts (of the selection), treemap, findings (the Findings panel), server "
                       "(the Server tab, from INFO) or shards (a cluster's Shards tab)."),
        QStringLiteral("view"));
    const QCommandLineOption profile(QStringLiteral("profile"),
                                     QStringLiteral("The naming convention to check the keys against: default, "
                                                    "strict or a JSON profile file (see keylens-cli lint)."),
                                     QStringLiteral("name|file"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot (default 1280x800)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption maxRate(QStringLiteral("max-rate"),
                                     QStringLiteral("Scan at most this many keys per second, to spare a busy server."),
                                     QStringLiteral("keys/s"));
    const QCommandLineOption sample(QStringLiteral("sample"),
                                    QStringLiteral("Measure memory on a uniform random sample of about N keys and "
                                                   "estimate each namespace's, with its error bound."),
                                    QStringLiteral("n"));
    const QCommandLineOption speed(QStringLiteral("speed"),
                                   QStringLiteral("Scan speed: full or gentle (default: full on loopback and Unix "
                                                  "sockets, gentle elsewhere)."),
                                   QStringLiteral("full|gentle"));
    const QCommandLineOption palette(QStringLiteral("palette"),
                                     QStringLiteral("dark or light instead of the system's palette."),
                                     QStringLiteral("name"));
    const QCommandLineOption help(QStringList{QStringLiteral("help"), QStringLiteral("?")},
                                  QStringLiteral("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version."));
    parser.addOptions({demo, demoKeys, demoPort, connection, delimiter, profile, screenshot, select, view, size,
                       maxRate, sample, speed, palette, help, version});

    GuiCommandResult result;
    auto usage = [&](const QString& message) {
        result.exitCode = 2;
        result.output = QStringLiteral("keylens: %1\nTry 'keylens --help'.\n").arg(message);
        return result;
    };
    if (!parser.parse(arguments))
        return usage(parser.errorText());
    if (parser.isSet(help)) {
        result.output = parser.helpText();
        return result;
    }
    if (parser.isSet(version)) {
        result.output = QStringLiteral("keylens %1\n").arg(QStringLiteral(KEYLENS_VERSION));
        return result;
    }

    // Printed by main() with the other output; the argv is clean from here on.
    result.warning = redis::hidePasswordsGivenOnCommandLine(parser);
    GuiCommand command;
    if (parser.isSet(delimiter)) {
        const QByteArray d = parser.value(delimiter).toUtf8();
        if (d.size() != 1)
            return usage(QStringLiteral("--delimiter takes one byte, not '%1'").arg(parser.value(delimiter)));
        command.target.delimiter = d[0];
    }
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(u'x');
        bool okW = false;
        bool okH = false;
        const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
        const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
        if (!okW || !okH || w < 400 || h < 300 || w > 8000 || h > 8000)
            return usage(
                QStringLiteral("--size takes WIDTHxHEIGHT (at least 400x300), not '%1'").arg(parser.value(size)));
        command.windowSize = QSize(w, h);
    }
    if (parser.isSet(palette)) {
        command.palette = parser.value(palette);
        if (command.palette != QStringLiteral("dark") && command.palette != QStringLiteral("light"))
            return usage(QStringLiteral("--palette takes dark or light"));
    }
    if (parser.isSet(maxRate)) {
        bool ok = false;
        command.target.maxKeysPerSecond = parser.value(maxRate).toDouble(&ok);
        if (!ok || command.target.maxKeysPerSecond <= 0)
            return usage(QStringLiteral("--max-rate takes keys per second, not '%1'").arg(parser.value(maxRate)));
    }
    if (parser.isSet(sample)) {
        bool ok = false;
        command.target.sampleSize = parser.value(sample).toULongLong(&ok);
        if (!ok || command.target.sampleSize == 0)
            return usage(
                QStringLiteral("--sample takes a number of keys of at least 1, not '%1'").arg(parser.value(sample)));
    }
    if (parser.isSet(speed)) {
        command.target.speed = scan::parseSpeed(parser.value(speed));
        if (!command.target.speed)
            return usage(QStringLiteral("--speed takes full or gentle, not '%1'").arg(parser.value(speed)));
    }
    if (parser.isSet(select) && !parser.isSet(screenshot))
        return usage(QStringLiteral("--select goes with --screenshot"));
    if (parser.isSet(view) && !parser.isSet(screenshot))
        return usage(QStringLiteral("--view goes with --screenshot"));
    if (parser.isSet(view) && !screenshotViews().contains(parser.value(view)))
        return usage(QStringLiteral("--view takes %1, not '%2'")
                         .arg(screenshotViews().join(QStringLiteral(", ")), parser.value(view)));
    command.view = parser.value(view);
    if (parser.isSet(profile)) {
        // Checked now so that a typo is a usage error (2) before any window opens, as in keylens-cli.
        QString error;
        if (!lint::loadProfile(parser.value(profile), &error))
            return usage(QStringLiteral("--profile: %1").arg(error));
        command.lintProfile = parser.value(profile);
    }
    command.screenshotFile = parser.value(screenshot);
    command.selectPath = parser.value(select).toUtf8();

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return usage(QStringLiteral("one URI at most, not %1 arguments").arg(positional.size()));
    const bool connectionFlags = !positional.isEmpty() || redis::connectionArgumentsGiven(parser);
    if (parser.isSet(demo) + connectionFlags + parser.isSet(connection) > 1)
        return usage(QStringLiteral("choose one of --demo, --connection and a server to connect to"));

    if (parser.isSet(demo)) {
        command.start = GuiCommand::Start::Demo;
        if (parser.isSet(demoKeys)) {
            bool ok = false;
            command.demoKeys = parser.value(demoKeys).toULongLong(&ok);
            if (!ok || command.demoKeys == 0 || command.demoKeys > 50'000'000)
                return usage(QStringLiteral("--demo-keys takes a number from 1 to 50000000"));
        }
        if (parser.isSet(demoPort)) {
            bool ok = false;
            const uint port = parser.value(demoPort).toUInt(&ok);
            if (!ok || port == 0 || port > 65535)
                return usage(QStringLiteral("--demo-port takes a port from 1 to 65535"));
            command.demoPort = quint16(port);
        }
    } else if (parser.isSet(connection)) {
        command.start = GuiCommand::Start::Saved;
        command.savedConnection = parser.value(connection);
    } else if (connectionFlags ||
               !QProcessEnvironment::systemEnvironment().value(QStringLiteral("REDIS_URL")).isEmpty()) {
        // --askpass asks in a dialog: the window's own terminal may be none.
        const auto askPassword = []() -> std::optional<QByteArray> {
            bool ok = false;
            const QString typed = QInputDialog::getText(nullptr, QStringLiteral("Keylens"), QStringLiteral("Password:"),
                                                        QLineEdit::Password, QString(), &ok);
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
        return usage(QStringLiteral("--screenshot needs a server (a URI, the connection flags or --demo)"));
    result.command = command;
    return result;
}

} // namespace keylens::ui
