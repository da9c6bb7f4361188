#include "ServerLoad.h"

#include "ProcessStats.h"
#include "redis/Connection.h"

#include <cstdio>

namespace {

// The time all commands reported since the last CONFIG RESETSTAT: the sum of every `usec=` in INFO commandstats.
double commandMs(keylens::redis::Connection& connection)
{
    auto reply = connection.command({"INFO", "commandstats"});
    if (!reply || reply->isError())
        return -1;
    double usec = 0;
    for (const QByteArray& line : reply->bytes().toByteArray().split('\n')) {
        const qsizetype at = line.indexOf(",usec=");
        if (line.startsWith("cmdstat_") && at >= 0)
            usec += line.mid(at + 6, line.indexOf(',', at + 1) - at - 6).toDouble();
    }
    return usec / 1000.0;
}

} // namespace

ServerLoad::ServerLoad(qint64 serverPid, keylens::redis::ConnectionOptions options)
    : m_pid(serverPid)
    , m_options(std::move(options))
{}

void ServerLoad::start()
{
    m_known = false;
    auto connection = keylens::redis::Connection::open(m_options);
    if (!connection || !(*connection)->command({"CONFIG", "RESETSTAT"}))
        return;
    const std::optional<ThreadClock> clock = mainThreadClock(m_pid);
    if (!clock)
        return;
    m_cpuMsAtStart = clock->runningMs;
    m_waitMsAtStart = clock->waitingMs;
    m_known = true;
}

void ServerLoad::finish(double wallSeconds, std::uint64_t keys)
{
    if (!m_known)
        return;
    const std::optional<ThreadClock> clock = mainThreadClock(m_pid);
    if (!clock) {
        m_known = false;
        return;
    }
    m_cpuMs = clock->runningMs - m_cpuMsAtStart;
    m_waitMs = clock->waitingMs - m_waitMsAtStart;
    auto connection = keylens::redis::Connection::open(m_options);
    m_commandMs = connection ? commandMs(**connection) : -1;
    m_wallSeconds = wallSeconds;
    m_keys = keys;
    m_known = m_cpuMs > 0 && m_commandMs >= 0 && wallSeconds > 0 && keys > 0;
}

double ServerLoad::busyShare() const
{
    return m_cpuMs / (m_wallSeconds * 1000.0);
}

double ServerLoad::waitShare() const
{
    return m_waitMs / (m_wallSeconds * 1000.0);
}

double ServerLoad::cpuMicrosecondsPerKey() const
{
    return m_cpuMs * 1000.0 / double(m_keys);
}

double ServerLoad::commandMicrosecondsPerKey() const
{
    return m_commandMs * 1000.0 / double(m_keys);
}

double ServerLoad::ceilingKeysPerSecond() const
{
    return double(m_keys) / (m_cpuMs / 1000.0);
}

QByteArray ServerLoad::summary(double clientKeysPerSecond) const
{
    if (!m_known)
        return "redis-server's load: not known (no /proc/<pid>/schedstat, or CONFIG RESETSTAT refused)";
    char line[320];
    std::snprintf(line, sizeof line,
                  "redis-server: busy %.0f%% of the run and waiting for a core %.0f%%, %.2f us of CPU a key (%.2f in "
                  "its commands); at most %.0f keys/s for any client asking the same, of which this run got %.0f%%",
                  busyShare() * 100.0, waitShare() * 100.0, cpuMicrosecondsPerKey(), commandMicrosecondsPerKey(),
                  ceilingKeysPerSecond(), clientKeysPerSecond / ceilingKeysPerSecond() * 100.0);
    return line;
}
