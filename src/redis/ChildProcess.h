#pragma once

#include "redis/Error.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>
#include <sys/types.h>

namespace keylens::redis {

// A helper program that must not outlive Keylens (ssh for a tunnel): it is killed when this object goes, and
// by the kernel when Keylens dies without a chance to clean up (a crash, SIGKILL). It runs in a process group of
// its own, so Ctrl-C in a terminal stops Keylens gracefully instead of cutting its tunnel first.
//
// What it writes to stderr is kept (in memory, not in a file other users could read) and can be read at any
// time. Safe to use from several threads.
class ChildProcess
{
public:
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Starts `program` (found on PATH) with `arguments`, stdin and stdout on /dev/null, and childEnvironment().
    static Result<std::unique_ptr<ChildProcess>> start(const QString& program, const QStringList& arguments);

    pid_t processId() const { return m_pid; }
    // False once it has ended (it is reaped then).
    bool isRunning();
    // What it wrote to stderr from byte `from` on (at most the last 64 KB of that), and how much it wrote in all.
    QByteArray errorOutput(qsizetype from = 0) const;
    qsizetype errorOutputSize() const;
    // SIGTERM, then SIGKILL if it has not ended within a second; reaps it. Does nothing once it has ended.
    void stop();

private:
    ChildProcess(pid_t pid, int errorFile);
    bool reapLocked(int options);

    pid_t m_pid;
    int m_errorFile; // a memfd the child writes its stderr to
    std::mutex m_mutex;
    bool m_running = true;
};

} // namespace keylens::redis
