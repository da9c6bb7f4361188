// keylens-cli profile [URI]: which key patterns the application reads and writes, from a short MONITOR sample.
#include "base/ServiceThread.h"
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/ExitCode.h"
#include "cli/InterruptWatcher.h"
#include "cli/Output.h"
#include "cli/ReportFile.h"
#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "live/MonitorSample.h"
#include "report/JsonWriter.h"

#include <QCommandLineParser>

#include <climits>

namespace keylens::cli {

namespace {

QByteArray perSecond(std::uint64_t count, double seconds)
{
    return QByteArray::number(seconds > 0 ? double(count) / seconds : 0.0, 'f', 1);
}

QByteArray profileJson(const live::MonitorSample& sample, std::size_t top)
{
    const live::MonitorProfile& profile = *sample.profile;
    QByteArray out;
    report::JsonWriter json(&out);
    json.beginDocument(1);
    json.key("seconds").value(sample.seconds);
    json.key("seconds_asked").value(sample.secondsAsked);
    json.key("ended_early");
    sample.error ? json.value(sample.error->message.toUtf8()) : json.null(); // why: the connection ended
    json.key("calls").value(profile.calls());
    json.key("ops_per_sec_before");
    sample.opsBefore ? json.value(*sample.opsBefore) : json.null();
    json.key("ops_per_sec_during");
    sample.opsDuring ? json.value(*sample.opsDuring) : json.null();
    json.key("patterns").beginArray();
    const std::vector<live::MonitorProfile::Pattern> patterns = profile.patterns();
    for (std::size_t i = 0; i < patterns.size() && i < top; ++i) {
        const live::MonitorProfile::Pattern& pattern = patterns[i];
        json.beginObject();
        json.bytesField("pattern", pattern.pattern);
        json.key("calls").value(pattern.calls);
        json.key("calls_per_s").value(sample.seconds > 0 ? double(pattern.calls) / sample.seconds : 0.0);
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

QByteArray profileText(const live::MonitorSample& sample, std::size_t top)
{
    const live::MonitorProfile& profile = *sample.profile;
    const auto ops = [](std::optional<double> value) {
        return value ? keyspace::formatCount(std::uint64_t(*value)) + " ops/s" : QByteArray("unknown");
    };
    // A sample cut short says so, and how long it really ran.
    const QByteArray cutShort = sample.error ? " (of the " + QByteArray::number(sample.secondsAsked) +
                                                   " s asked: the MONITOR connection ended, " +
                                                   sample.error->message.toUtf8() + ")"
                                             : QByteArray();
    QByteArray out = "MONITOR sample of " + QByteArray::number(sample.seconds, 'f', 1) + " s" + cutShort + ": " +
                     keyspace::formatCount(profile.calls()) + " commands (" +
                     perSecond(profile.calls(), sample.seconds) + "/s). Server throughput " + ops(sample.opsBefore) +
                     " before, " + ops(sample.opsDuring) + " during.\n\n";
    out += QByteArray("PATTERN").leftJustified(40) + "   CALLS/s    READS   WRITES  COMMANDS\n";
    const std::vector<live::MonitorProfile::Pattern> patterns = profile.patterns();
    for (std::size_t i = 0; i < patterns.size() && i < top; ++i) {
        const live::MonitorProfile::Pattern& pattern = patterns[i];
        QByteArrayList commands;
        for (std::size_t c = 0; c < pattern.commands.size() && c < 4; ++c)
            commands << pattern.commands[c].command + ' ' + keyspace::formatCount(pattern.commands[c].calls);
        out += keyspace::displayBytes(pattern.pattern).leftJustified(40, ' ', true) + "  " +
               perSecond(pattern.calls, sample.seconds).rightJustified(8) + "  " +
               keyspace::formatCount(pattern.reads).rightJustified(7) + "  " +
               keyspace::formatCount(pattern.writes).rightJustified(7) + "  " + commands.join(", ") + '\n';
        for (const live::MonitorProfile::KeyCalls& key : pattern.topKeys)
            out += "    " + keyspace::displayBytes(key.key).leftJustified(44, ' ', true) + ' ' +
                   keyspace::formatCounted(key.calls, "call") + '\n';
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
    if (!ok || seconds < 1 || seconds > live::MaximumMonitorSeconds)
        return usageError(QStringLiteral("--seconds takes 1 to %1 (MONITOR halves the server's throughput)")
                              .arg(live::MaximumMonitorSeconds));
    const QString format = parser.value(QStringLiteral("format"));
    const bool json = format == QLatin1String("json");
    if (!format.isEmpty() && !json && format != QLatin1String("text"))
        return usageError(QStringLiteral("--format takes text or json, not '%1'").arg(format));
    const int top =
        parser.isSet(QStringLiteral("top")) ? parser.value(QStringLiteral("top")).toInt(&ok) : (json ? INT_MAX : 20);
    if (!ok || top < 1)
        return usageError(QStringLiteral("--top takes 1 or more"));
    keyspace::Delimiters delimiters(':');
    if (QString problem; !readDelimiterOption(parser, &delimiters, &problem))
        return usageError(problem);

    base::StopFlag cancel;
    InterruptWatcher interrupts([&cancel] { cancel.request(); });
    const live::MonitorSample sample = live::sampleMonitor(connection, delimiters, seconds, cancel, [seconds] {
        writeStderr("keylens-cli: MONITOR for " + QByteArray::number(seconds) +
                    " s; it costs the server about half its throughput meanwhile\n");
    });
    if (!sample.started) {
        writeStderr("keylens-cli: " + sample.error->message.toUtf8() + '\n');
        return sample.profile ? ExitFailure : ExitConnection; // MONITOR refused, or no connection at all
    }
    if (sample.error)
        writeStderr("keylens-cli: the MONITOR connection ended early (" + sample.error->message.toUtf8() +
                    "): the sample covers what arrived before\n");
    const QByteArray document = json ? profileJson(sample, std::size_t(top)) : profileText(sample, std::size_t(top));
    if (QString problem; !writeToStandardOutput(document, QStringLiteral("the profile"), &problem))
        return writeFailed(problem);
    return interrupts.hasFired() ? interruptedExitCode() : sample.error ? ExitFailure : ExitOk;
}

} // namespace keylens::cli
