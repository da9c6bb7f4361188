// keylens-cli profile [URI]: which key patterns the application reads and writes, from a short MONITOR sample.
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "live/MonitorProfile.h"
#include "redis/Connection.h"
#include "redis/ServerInfo.h"
#include "redis/WriteGate.h"
#include "report/JsonWriter.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QThread>

#include <climits>
#include <thread>

namespace keylens::cli {

namespace {

constexpr int MaximumSeconds = 60; // MONITOR halves the server's throughput: a sample, not a habit

struct OpsFigures
{
    std::optional<double> instantaneous; // INFO stats instantaneous_ops_per_sec
    std::optional<double> processed;     // total_commands_processed
};

OpsFigures opsOf(redis::Connection& connection)
{
    OpsFigures figures;
    redis::Result<redis::Reply> info = connection.command({"INFO", "stats"});
    if (!info || info->isError())
        return figures;
    bool ok = false;
    if (const double value = redis::infoField(info->bytes(), "instantaneous_ops_per_sec").toDouble(&ok); ok)
        figures.instantaneous = value;
    if (const double value = redis::infoField(info->bytes(), "total_commands_processed").toDouble(&ok); ok)
        figures.processed = value;
    return figures;
}

struct ProfileCost
{
    double seconds = 0;
    std::optional<double> before; // ops/s before MONITOR started
    std::optional<double> during; // ops/s while it ran
};

QByteArray perSecond(std::uint64_t count, double seconds)
{
    return QByteArray::number(seconds > 0 ? double(count) / seconds : 0.0, 'f', 1);
}

QByteArray profileJson(const live::MonitorProfile& profile, const ProfileCost& cost, std::size_t top)
{
    QByteArray out;
    report::JsonWriter json(&out);
    json.beginDocument(1);
    json.key("seconds").value(cost.seconds);
    json.key("calls").value(profile.calls());
    json.key("ops_per_sec_before");
    cost.before ? json.value(*cost.before) : json.null();
    json.key("ops_per_sec_during");
    cost.during ? json.value(*cost.during) : json.null();
    json.key("patterns").beginArray();
    const std::vector<live::MonitorProfile::Pattern> patterns = profile.patterns();
    for (std::size_t i = 0; i < patterns.size() && i < top; ++i) {
        const live::MonitorProfile::Pattern& pattern = patterns[i];
        json.beginObject();
        json.bytesField("pattern", pattern.pattern);
        json.key("calls").value(pattern.calls);
        json.key("calls_per_s").value(cost.seconds > 0 ? double(pattern.calls) / cost.seconds : 0.0);
        json.key("reads").value(pattern.reads);
        json.key("writes").value(pattern.writes);
        json.key("commands").beginArray();
        for (const live::MonitorProfile::CommandCalls& command : pattern.commands) {
            json.beginObject();
            json.key("command").value(command.command);
            json.key("calls").value(command.calls);
            json.endObject();
        }
        json.endArray();
        json.key("top_keys").beginArray();
        for (const live::MonitorProfile::KeyCalls& key : pattern.topKeys) {
            json.beginObject();
            json.bytesField("key", key.key);
            json.key("calls").value(key.calls);
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endArray();
    json.endObject();
    return out;
}

QByteArray profileText(const live::MonitorProfile& profile, const ProfileCost& cost, std::size_t top)
{
    const auto ops = [](std::optional<double> value) {
        return value ? keyspace::formatCount(std::uint64_t(*value)) + " ops/s" : QByteArray("unknown");
    };
    QByteArray out = "MONITOR sample of " + QByteArray::number(cost.seconds, 'f', 1) +
                     " s: " + keyspace::formatCount(profile.calls()) + " commands (" +
                     perSecond(profile.calls(), cost.seconds) + "/s). Server throughput " + ops(cost.before) +
                     " before, " + ops(cost.during) + " during.\n\n";
    out += QByteArray("PATTERN").leftJustified(40) + "   CALLS/s    READS   WRITES  COMMANDS\n";
    const std::vector<live::MonitorProfile::Pattern> patterns = profile.patterns();
    for (std::size_t i = 0; i < patterns.size() && i < top; ++i) {
        const live::MonitorProfile::Pattern& pattern = patterns[i];
        QByteArrayList commands;
        for (std::size_t c = 0; c < pattern.commands.size() && c < 4; ++c)
            commands << pattern.commands[c].command + ' ' + keyspace::formatCount(pattern.commands[c].calls);
        out += keyspace::displayBytes(pattern.pattern).leftJustified(40, ' ', true) + "  " +
               perSecond(pattern.calls, cost.seconds).rightJustified(8) + "  " +
               keyspace::formatCount(pattern.reads).rightJustified(7) + "  " +
               keyspace::formatCount(pattern.writes).rightJustified(7) + "  " + commands.join(", ") + '\n';
        for (const live::MonitorProfile::KeyCalls& key : pattern.topKeys)
            out += "    " + keyspace::displayBytes(key.key).leftJustified(44, ' ', true) + ' ' +
                   keyspace::formatCount(key.calls) + (key.calls == 1 ? " call\n" : " calls\n");
    }
    if (patterns.size() > top)
        out += "… " + keyspace::formatCount(patterns.size() - top) + " more patterns\n";
    return out;
}

} // namespace

usage::Command profileCommand()
{
    usage::Command command;
    command.name = QStringLiteral("profile");
    command.summary = QStringLiteral("Which key patterns the application reads and writes (a MONITOR sample)");
    command.description = QStringLiteral(
        "Run MONITOR for a few seconds and group what the clients sent by key pattern and command: calls per "
        "second, reads against writes, the keys called most. MONITOR costs the server about half its throughput, "
        "so the sample stops after --seconds (60 at most) or Ctrl-C, and the report says what it cost (ops/s "
        "before and during, from INFO). Values and passwords in the commands are never kept or printed.");
    command.arguments = {uriArgument()};
    command.options = {
        {QStringLiteral("seconds"), QStringLiteral("Sample this long (default 10, at most 60)."), QStringLiteral("n")},
        {QStringLiteral("format"), QStringLiteral("text or json (default text)."), QStringLiteral("format")},
        {QStringLiteral("top"), QStringLiteral("Patterns to list (default 20 for text, all for json)."),
         QStringLiteral("n")},
        {QStringLiteral("delimiter"), QStringLiteral("Namespace delimiters (default ':')."), QStringLiteral("byte")},
    };
    command.groups = {connectionGroup()};
    command.choices = {{QStringLiteral("format"), {QStringLiteral("text"), QStringLiteral("json")}}};
    return command;
}

int runProfileCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    profileCommand().addTo(parser);
    if (const std::optional<int> done = parseCommandLine(parser, arguments, QStringLiteral("profile")))
        return *done;
    redis::ConnectionOptions connection;
    if (const std::optional<int> failed = readConnection(parser, QStringLiteral("profile"), &connection))
        return *failed;
    bool ok = true;
    const int seconds =
        parser.isSet(QStringLiteral("seconds")) ? parser.value(QStringLiteral("seconds")).toInt(&ok) : 10;
    if (!ok || seconds < 1 || seconds > MaximumSeconds)
        return usageError(
            QStringLiteral("--seconds takes 1 to %1 (MONITOR halves the server's throughput)").arg(MaximumSeconds));
    const QString format = parser.value(QStringLiteral("format"));
    const bool json = format == QLatin1String("json");
    if (!format.isEmpty() && !json && format != QLatin1String("text"))
        return usageError(QStringLiteral("--format takes text or json, not '%1'").arg(format));
    const int top =
        parser.isSet(QStringLiteral("top")) ? parser.value(QStringLiteral("top")).toInt(&ok) : (json ? INT_MAX : 20);
    if (!ok || top < 1)
        return usageError(QStringLiteral("--top takes 1 or more"));
    keyspace::Delimiters delimiters(':');
    if (parser.isSet(QStringLiteral("delimiter"))) {
        const std::optional<keyspace::Delimiters> parsed =
            keyspace::Delimiters::parse(parser.value(QStringLiteral("delimiter")).toUtf8());
        if (!parsed)
            return usageError(QStringLiteral("--delimiter takes bytes to split keys on (':', ':/'), not '%1'")
                                  .arg(parser.value(QStringLiteral("delimiter"))));
        delimiters = *parsed;
    }

    redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(connection);
    if (!opened) {
        writeStderr("keylens-cli: " + opened.error().message.toUtf8() + '\n');
        return ExitConnection;
    }
    redis::Connection& admin = **opened;
    // The write gate's own judgement of each command (the server's COMMAND table where it may be read).
    redis::WriteGate gate;
    if (redis::Result<redis::Reply> table = admin.command({"COMMAND"}); table && table->isArray())
        gate.learn(*table);
    live::MonitorProfile profile(delimiters, [&gate](const std::vector<QByteArray>& arguments) {
        std::vector<QByteArrayView> views(arguments.begin(), arguments.end());
        return gate.isWrite(views);
    });

    ProfileCost cost;
    const OpsFigures before = opsOf(admin);
    cost.before = before.instantaneous;
    writeStderr("keylens-cli: MONITOR for " + QByteArray::number(seconds) +
                " s; it costs the server about half its throughput meanwhile\n");

    std::atomic<bool> stop{false};
    redis::ConnectionOptions monitorOptions = connection;
    monitorOptions.commandTimeoutMs = INT_MAX; // an idle server sends nothing for long
    redis::Result<std::unique_ptr<redis::Connection>> monitorOpened = redis::Connection::open(monitorOptions, &stop);
    if (!monitorOpened) {
        writeStderr("keylens-cli: " + monitorOpened.error().message.toUtf8() + '\n');
        return ExitConnection;
    }
    redis::Connection& monitor = **monitorOpened;
    if (redis::Result<redis::Reply> started = monitor.command({"MONITOR"}); !started || started->isError()) {
        writeStderr("keylens-cli: MONITOR was refused: " +
                    (started ? started->bytes() : started.error().message.toUtf8()) + '\n');
        return ExitFailure;
    }
    QElapsedTimer clock;
    clock.start();
    std::optional<redis::Error> lost;
    // The lines are parsed as they come, on a thread of their own: a reader slower than the server lets MONITOR's
    // output buffer grow on the server, which has no limit for it.
    std::thread reader([&] {
        while (!stop.load()) {
            redis::Result<redis::Reply> line = monitor.read();
            if (!line) {
                if (line.error().kind != redis::ErrorKind::Cancelled)
                    lost = line.error();
                return;
            }
            if (const std::optional<live::MonitorLine> parsed = live::parseMonitorLine(line->bytes()))
                profile.add(*parsed);
        }
    });
    InterruptWatcher interrupts;
    while (clock.elapsed() < std::int64_t(seconds) * 1000 && !interrupts.hasFired())
        QThread::msleep(50);
    stop = true;
    reader.join();
    cost.seconds = double(clock.elapsed()) / 1000.0;
    const OpsFigures after = opsOf(admin);
    if (before.processed && after.processed && cost.seconds > 0)
        cost.during = (*after.processed - *before.processed) / cost.seconds;
    if (lost)
        writeStderr("keylens-cli: the MONITOR connection ended early (" + lost->message.toUtf8() +
                    "): the sample covers what arrived before\n");

    if (!writeStdout(json ? profileJson(profile, cost, std::size_t(top))
                          : profileText(profile, cost, std::size_t(top)))) {
        writeStderr("keylens-cli: cannot write to standard output\n");
        return ExitFailure;
    }
    return interrupts.hasFired() ? ExitInterrupted : lost ? ExitFailure : ExitOk;
}

} // namespace keylens::cli
