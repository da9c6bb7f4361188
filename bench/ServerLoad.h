#pragma once

#include "redis/ConnectionOptions.h"

#include <QtGlobal>

#include <cstdint>

// What a redis-server did while a client scanned it: the CPU time of its main thread, which runs every command
// (from /proc/<pid>/schedstat), and the time its commands reported themselves (INFO commandstats, reset at start()).
// With these, a bench tells a client that waits for the server from one that makes the server wait: the server's CPU
// per key is its cost of answering SCAN, TYPE, PTTL and MEMORY USAGE for one key, and keys / that CPU time is the
// most any client asking those questions could get from it.
class ServerLoad
{
public:
    ServerLoad(qint64 serverPid, keylens::redis::ConnectionOptions options);

    void start();
    void finish(double wallSeconds, std::uint64_t keys);

    bool known() const { return m_known; }
    double busyShare() const; // of the wall time, its main thread on a core
    // Of the wall time, its main thread ready to run but without a core: the client's own threads (and the
    // machine's) held the cores it could have answered on.
    double waitShare() const;
    double cpuMicrosecondsPerKey() const;     // main-thread CPU
    double commandMicrosecondsPerKey() const; // inside the commands, as they timed themselves
    double ceilingKeysPerSecond() const;      // keys per second of that main thread's CPU
    // One line for a bench's output: "redis-server: busy 85% of the run and waiting for a core 3%, 3.71 us of CPU a
    // key (2.77 in its commands); at most 269699 keys/s ...".
    QByteArray summary(double clientKeysPerSecond) const;

private:
    qint64 m_pid;
    keylens::redis::ConnectionOptions m_options;
    double m_cpuMsAtStart = 0;
    double m_waitMsAtStart = 0;
    double m_cpuMs = 0;
    double m_waitMs = 0;
    double m_commandMs = 0;
    double m_wallSeconds = 0;
    std::uint64_t m_keys = 0;
    bool m_known = false;
};
