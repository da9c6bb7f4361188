#include "live/MonitorSample.h"

#include "redis/Connection.h"
#include "redis/ServerInfo.h"
#include "redis/WriteGate.h"

#include <QElapsedTimer>

#include <algorithm>
#include <climits>
#include <future>

namespace keylens::live {

namespace {

struct OpsFigures
{
    std::optional<double> instantaneous; // instantaneous_ops_per_sec
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

} // namespace

MonitorSample sampleMonitor(const redis::ConnectionOptions& options, const keyspace::Delimiters& delimiters,
                            int seconds, base::StopFlag& stop, const std::function<void()>& started)
{
    MonitorSample sample;
    seconds = std::clamp(seconds, 1, MaximumMonitorSeconds);
    // Not cancelled with the sample: the throughput during it is still read after a Cancel.
    redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(options);
    if (!opened) {
        sample.error = opened.error();
        return sample;
    }
    redis::Connection& admin = **opened;
    // Reads and writes as the write gate tells them (the server's COMMAND table where it may be read).
    auto gate = std::make_shared<redis::WriteGate>();
    if (redis::Result<redis::Reply> table = admin.command({"COMMAND"}); table && table->isArray())
        gate->learn(*table);
    sample.profile = std::make_shared<MonitorProfile>(delimiters, [gate](const std::vector<QByteArray>& arguments) {
        const std::vector<QByteArrayView> views(arguments.begin(), arguments.end());
        return gate->isWrite(views);
    });
    const OpsFigures before = opsOf(admin);
    sample.opsBefore = before.instantaneous;

    redis::ConnectionOptions monitorOptions = options;
    monitorOptions.commandTimeoutMs = INT_MAX; // an idle server sends nothing for long
    // The MONITOR connection lives on the reader's thread from its opening to its end: a socket used from a thread
    // other than its own printed "QSocketNotifier: Socket notifiers cannot be enabled or disabled from another
    // thread" when the server went away.
    std::promise<std::optional<redis::Error>> opening;
    std::future<std::optional<redis::Error>> monitoring = opening.get_future();
    std::optional<redis::Error> lost;
    // Stopped by this thread at the end (its own flag: the MONITOR connection's cancel flag), not by `stop`, so that a
    // Cancel during the opening still gives a sample.
    base::ServiceThread reader(QStringLiteral("keylens monitor"));
    reader.start([&] {
        redis::Result<std::unique_ptr<redis::Connection>> monitorOpened =
            redis::Connection::open(monitorOptions, reader.stopFlag());
        if (!monitorOpened) {
            opening.set_value(monitorOpened.error());
            return;
        }
        redis::Connection& monitor = **monitorOpened;
        if (redis::Result<redis::Reply> answer = monitor.command({"MONITOR"}); !answer || answer->isError()) {
            opening.set_value(answer ? redis::errorFromReply(answer->bytes(), "MONITOR") : answer.error());
            return;
        }
        opening.set_value(std::nullopt);
        while (!reader.isStopRequested()) {
            redis::Result<redis::Reply> line = monitor.read();
            if (!line) {
                if (line.error().kind != redis::ErrorKind::Cancelled)
                    lost = line.error();
                stop.request(); // the MONITOR connection ended: the sample ends with it
                return;
            }
            if (const std::optional<MonitorLine> parsed = parseMonitorLine(line->bytes()))
                sample.profile->add(*parsed);
        }
    });
    if (std::optional<redis::Error> refused = monitoring.get()) {
        reader.stop();
        sample.error = std::move(refused);
        return sample;
    }
    sample.started = true;
    if (started)
        started();
    QElapsedTimer clock;
    clock.start();
    sample.secondsAsked = seconds;
    // Until the time asked, a Cancel or Ctrl-C, or the server going away: a sample is only as long as what it heard.
    stop.waitFor(seconds * 1000);
    reader.stop();
    sample.seconds = double(clock.elapsed()) / 1000.0;
    const OpsFigures after = opsOf(admin);
    if (before.processed && after.processed && sample.seconds > 0)
        sample.opsDuring = (*after.processed - *before.processed) / sample.seconds;
    sample.error = lost;
    return sample;
}

} // namespace keylens::live
