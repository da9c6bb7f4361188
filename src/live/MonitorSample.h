#pragma once

#include "base/ServiceThread.h"
#include "live/MonitorProfile.h"
#include "redis/ConnectionOptions.h"
#include "redis/Error.h"

#include <functional>
#include <memory>
#include <optional>

namespace keylens::live {

// MONITOR halves a server's throughput: a sample, not a habit.
inline constexpr int MaximumMonitorSeconds = 60;

// A MONITOR sample and what it cost the server.
struct MonitorSample
{
    std::shared_ptr<MonitorProfile> profile;
    double seconds = 0;                // how long it ran: less than asked after a Ctrl-C or when the connection ended
    int secondsAsked = 0;              // how long it was to run
    std::optional<double> opsBefore;   // INFO stats instantaneous_ops_per_sec before MONITOR started
    std::optional<double> opsDuring;   // commands processed a second while it ran
    std::optional<redis::Error> error; // why it could not start, or ended early (the sample holds what came before)
    bool started = false;              // MONITOR ran: the profile means something
};

// Runs MONITOR on a connection of its own for `seconds` (at most MaximumMonitorSeconds) or until `stop` is requested
// (Cancel, Ctrl-C: it ends at once, not at the next look at a flag), grouping what the clients sent by key pattern
// (MonitorProfile). When the MONITOR connection ends first, the sample requests `stop` itself. Blocks: call it on a
// worker thread, or from a command-line tool. The lines are parsed as they come: a reader slower than the server lets
// MONITOR's output buffer grow on the server, which has no limit for it. `started`, when given, is called once MONITOR
// runs (not before: a refused connection or a denied MONITOR must not be announced as a sample under way).
MonitorSample sampleMonitor(const redis::ConnectionOptions& options, const keyspace::Delimiters& delimiters,
                            int seconds, base::StopFlag& stop, const std::function<void()>& started = {});

} // namespace keylens::live
