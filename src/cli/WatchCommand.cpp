// keylens-cli watch [URI]: key events per pattern and second, from the server's keyspace notifications.
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "cli/ReportFile.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "live/EventSubscriber.h"
#include "live/NotificationConfig.h"
#include "redis/Connection.h"
#include "redis/ServerInfo.h"
#include "report/JsonWriter.h"

#include <QCommandLineParser>
#include <QElapsedTimer>

#include <unistd.h>

namespace keylens::cli {

namespace {

// INFO server's run_id, or nothing where it cannot be read (a connection lost, INFO denied).
QByteArray serverRunId(redis::Connection& connection)
{
    const redis::Result<redis::Reply> info = connection.command({"INFO", "server"});
    return info && info->isString() ? redis::infoField(info->bytes(), "run_id").toByteArray() : QByteArray();
}

// Why a subscription ended, as a new connection finds the server: gone, restarted (another run_id: it has its own
// settings back, nothing to restore), or the same one, which closes a subscriber that falls behind
// (client-output-buffer-limit pubsub).
struct SubscriptionEnd
{
    QByteArray why;
    bool restarted = false;
};
SubscriptionEnd whySubscriptionEnded(const redis::ConnectionOptions& options, const QByteArray& runIdAtStart)
{
    redis::ConnectionOptions quick = options;
    quick.connectTimeoutMs = std::min(quick.connectTimeoutMs, 2000);
    quick.commandTimeoutMs = std::min(quick.commandTimeoutMs, 2000);
    redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(quick);
    if (!opened)
        return {"The server cannot be reached now (" + opened.error().message.toUtf8() + ").", false};
    const QByteArray runId = serverRunId(**opened);
    if (!runIdAtStart.isEmpty() && !runId.isEmpty() && runId != runIdAtStart)
        return {"The server restarted meanwhile (its run_id changed), with its own settings.", true};
    return {"The server is still there: it disconnects a subscriber that cannot keep up "
            "(client-output-buffer-limit pubsub), or a client killed the connection.",
            false};
}

// The interval's counts as one line of JSON (JSON Lines: a consumer reads them as they come).
QByteArray intervalJson(int intervalSeconds, const std::vector<live::PatternEvents>& patterns, std::size_t top)
{
    QByteArray out;
    report::JsonWriter json(&out);
    json.beginObject();
    json.key("interval_s").value(intervalSeconds);
    json.key("patterns").beginArray();
    for (std::size_t i = 0; i < patterns.size() && i < top; ++i) {
        const live::PatternEvents& entry = patterns[i];
        json.beginObject();
        json.bytesField("pattern", entry.pattern);
        json.key("writes").value(entry.counts[std::size_t(live::KeyEvent::Write)]);
        json.key("deletes").value(entry.counts[std::size_t(live::KeyEvent::Delete)]);
        json.key("expired").value(entry.counts[std::size_t(live::KeyEvent::Expired)]);
        json.key("evicted").value(entry.counts[std::size_t(live::KeyEvent::Evicted)]);
        json.endObject();
    }
    json.endArray();
    json.endObject();
    // One object a line (JSON Lines), whatever the writer's layout: its line breaks and indents go.
    QByteArray line;
    for (const QByteArray& part : out.split('\n'))
        line += part.trimmed();
    return line + '\n';
}

// Top-like: the patterns with the most events a second, redrawn in place on a terminal.
QByteArray intervalText(double seconds, const std::vector<live::PatternEvents>& patterns, std::size_t top,
                        bool terminal)
{
    QByteArray out = terminal ? QByteArray("\x1b[H\x1b[2J") : QByteArray();
    std::uint64_t total = 0;
    for (const live::PatternEvents& entry : patterns)
        total += entry.total();
    out += "Key events per second: " + QByteArray::number(double(total) / seconds, 'f', 1) + " in " +
           keyspace::formatCount(patterns.size()) + " patterns\n";
    out += QByteArray("PATTERN").leftJustified(48) + "  WRITES/s  DELETES/s  EXPIRED/s  EVICTED/s\n";
    for (std::size_t i = 0; i < patterns.size() && i < top; ++i) {
        const live::PatternEvents& entry = patterns[i];
        QByteArray line = keyspace::displayBytes(entry.pattern).leftJustified(48, ' ', true);
        for (const std::uint64_t count : entry.counts)
            line += "  " + QByteArray::number(double(count) / seconds, 'f', 1).rightJustified(9);
        out += line + '\n';
    }
    if (!terminal)
        out += '\n';
    return out;
}

} // namespace

usage::Command watchCommand()
{
    usage::Command command;
    command.name = QStringLiteral("watch");
    command.summary = QStringLiteral("Count writes, deletes, expiries and evictions per key pattern, live");
    command.description = QStringLiteral(
        "Subscribe to the server's keyspace notifications (__keyevent@<db>__:*) and print, every interval, the writes, "
        "deletes, expiries and evictions of each key pattern (ids folded: user:<int>:profile), busiest first. "
        "Notifications are off on a default server: --enable-notifications turns them on for the watch (CONFIG SET, "
        "refused on a read-only connection) and puts the setting back when it ends.");
    command.arguments = {uriArgument()};
    command.options = {
        {QStringLiteral("seconds"), QStringLiteral("Watch this long (default 10; 0: until Ctrl-C)."),
         QStringLiteral("n")},
        {QStringLiteral("interval"), QStringLiteral("Seconds per line of counts (default 1)."), QStringLiteral("n")},
        {QStringLiteral("format"), QStringLiteral("text (top-like) or json (an object per interval, a line each)."),
         QStringLiteral("format")},
        {QStringLiteral("top"), QStringLiteral("Patterns per interval (default 20 for text, all for json)."),
         QStringLiteral("n")},
        {QStringLiteral("delimiter"), QStringLiteral("Namespace delimiters (default ':')."), QStringLiteral("byte")},
        {QStringLiteral("enable-notifications"),
         QStringLiteral("Turn the server's key events on for the watch (CONFIG SET notify-keyspace-events), and put "
                        "the old setting back at the end.")},
        {QStringLiteral("keep-notifications"),
         QStringLiteral("With --enable-notifications: leave them on when the watch ends.")},
    };
    command.groups = {connectionGroup()};
    command.choices = {{QStringLiteral("format"), {QStringLiteral("text"), QStringLiteral("json")}}};
    return command;
}

int runWatchCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    watchCommand().addTo(parser);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("watch")))
        return *done;
    redis::ConnectionOptions connection;
    if (const std::optional<int> failed = readConnection(parser, QStringLiteral("watch"), &connection))
        return *failed;
    const auto number = [&](const char* name, int fallback, int minimum) -> std::optional<int> {
        if (!parser.isSet(QLatin1String(name)))
            return fallback;
        bool ok = false;
        const int value = parser.value(QLatin1String(name)).toInt(&ok);
        return ok && value >= minimum ? std::optional<int>(value) : std::nullopt;
    };
    const std::optional<int> seconds = number("seconds", 10, 0);
    const std::optional<int> interval = number("interval", 1, 1);
    const QString format = parser.value(QStringLiteral("format"));
    const bool json = format == QLatin1String("json");
    const std::optional<int> top = number("top", json ? 1'000'000 : 20, 1);
    if (!seconds || !interval || !top)
        return usageError(QStringLiteral("--seconds takes 0 or more, --interval and --top 1 or more"));
    if (!format.isEmpty() && !json && format != QLatin1String("text"))
        return usageError(QStringLiteral("--format takes text or json, not '%1'").arg(format));
    keyspace::Delimiters delimiters(':');
    if (QString problem; !readDelimiterOption(parser, &delimiters, &problem))
        return usageError(problem);

    redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(connection);
    if (!opened) {
        writeStderr("keylens-cli: " + opened.error().message.toUtf8() + '\n');
        return ExitConnection;
    }
    redis::Connection& admin = **opened;
    const QByteArray runId = serverRunId(admin); // to tell a restart from a subscriber cut off
    // What the server publishes now; a user denied CONFIG is told, and watches what arrives.
    std::optional<live::NotificationConfig> config;
    if (redis::Result<live::NotificationConfig> got = live::readNotificationConfig(admin))
        config = *got;
    else
        writeStderr("keylens-cli: notify-keyspace-events could not be read (" + got.error().message.toUtf8() +
                    "); counting whatever key events the server publishes\n");
    bool changed = false;
    if (config && !config->publishesKeyEvents()) {
        const QByteArray missing = config->missing();
        if (!parser.isSet(QStringLiteral("enable-notifications"))) {
            writeStderr("keylens-cli: the server does not publish " + missing + " (notify-keyspace-events is '" +
                        config->flags +
                        "'). Run with --enable-notifications to turn them on for the watch (the setting is put "
                        "back when it ends), or CONFIG SET notify-keyspace-events " +
                        config->withKeyEvents() + " yourself.\n");
            return ExitFailure;
        }
        // Through the write gate: a read-only connection refuses it, and nothing changes.
        if (redis::Status set = live::setNotificationFlags(admin, config->withKeyEvents()); !set) {
            writeStderr("keylens-cli: could not turn key events on: " + set.error().message.toUtf8() + '\n');
            return ExitFailure;
        }
        changed = true;
        writeStderr("keylens-cli: notify-keyspace-events set to '" + config->withKeyEvents() + "' (was '" +
                    config->flags + "')" +
                    (parser.isSet(QStringLiteral("keep-notifications")) ? "; kept after the watch\n"
                                                                        : "; put back when the watch ends\n"));
    }
    bool restarted = false;
    const auto restore = [&] {
        if (!changed || parser.isSet(QStringLiteral("keep-notifications")) || restarted)
            return;
        if (!live::setNotificationFlags(admin, config->flags))
            writeStderr("keylens-cli: could not put notify-keyspace-events back to '" + config->flags +
                        "': CONFIG SET it by hand\n");
    };

    live::EventSubscriber subscriber(connection, delimiters);
    if (redis::Status started = subscriber.start(); !started) {
        writeStderr("keylens-cli: could not subscribe to key events: " + started.error().message.toUtf8() + '\n');
        restore();
        return ExitConnection;
    }
    // A closed terminal (SIGHUP), SIGQUIT or a reader gone (SIGPIPE, `watch | head`) end it as Ctrl-C does: the
    // server gets its notify-keyspace-events back below.
    InterruptWatcher interrupts({}, InterruptWatcher::Pipe::BrokenPipe);
    const bool terminal = !json && ::isatty(STDOUT_FILENO);
    QElapsedTimer clock;
    clock.start();
    int exitCode = ExitOk;
    for (qint64 next = std::int64_t(*interval) * 1000;; next += std::int64_t(*interval) * 1000) {
        const bool last = *seconds > 0 && next >= std::int64_t(*seconds) * 1000;
        // The rest of the interval; a signal ends the wait at once.
        while (clock.elapsed() < next && interrupts.waitFor(int(next - clock.elapsed()))) {
        }
        if (interrupts.hasFired()) {
            exitCode = interruptedExitCode();
            break;
        }
        if (const std::optional<redis::Error> failure = subscriber.failure()) {
            // Counts from here would be short without saying so. Why it ended is asked of the server as it is now.
            const SubscriptionEnd ended = whySubscriptionEnded(connection, runId);
            writeStderr("keylens-cli: the subscription ended (" + failure->message.toUtf8() +
                        "); events were lost, so the counts stop here. " + ended.why + '\n');
            exitCode = ExitFailure;
            restarted = ended.restarted;
            break;
        }
        const std::vector<live::PatternEvents> counts = subscriber.takeCounts();
        QString problem;
        if (!writeToStandardOutput(json ? intervalJson(*interval, counts, std::size_t(*top))
                                        : intervalText(double(*interval), counts, std::size_t(*top), terminal),
                                   QStringLiteral("the counts"), &problem)) {
            exitCode = writeFailed(problem); // quietly when the reader went away (`watch | head`)
            break;
        }
        if (last)
            break;
    }
    subscriber.stop();
    restore();
    return exitCode;
}

} // namespace keylens::cli
