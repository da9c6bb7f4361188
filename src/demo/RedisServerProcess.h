#pragma once

#include "redis/ConnectionOptions.h"

#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace keylens::demo {

// A private redis-server on a free loopback port, in a temporary directory, with persistence off.
// Used by `keylens-cli demo`, `keylens --demo`, the integration tests and the benchmarks.
// The server stops when this object is destroyed, and (on Linux) when this process dies.
class RedisServerProcess
{
public:
    struct Options
    {
        QByteArray configText;      // written to redis.conf and loaded first (rename-command, ACL users...)
        QStringList extraArguments; // appended after our own, so they win
        QString rdbDirectory;       // load dbFilename from here instead of starting empty
        QString rdbFilename;
        bool survivesUs = false; // keep running after we exit (`demo --keep`)
        quint16 port = 0;        // 0: a free one
    };

    RedisServerProcess();
    ~RedisServerProcess();
    RedisServerProcess(const RedisServerProcess&) = delete;
    RedisServerProcess& operator=(const RedisServerProcess&) = delete;

    // The redis-server on PATH, or an empty string.
    static QString findExecutable();

    redis::Status start(const Options& options);
    redis::Status start() { return start(Options{}); }
    void stop();

    quint16 port() const { return m_port; }
    qint64 processId() const; // 0 when not running (tests kill it to see a scan survive that)
    redis::ConnectionOptions connectionOptions() const;
    QString uri() const;
    QString directory() const;

private:
    redis::Status startOnce(const Options& options, quint16 port);
    redis::Status waitUntilReady(int timeoutMs);
    QString logTail() const;

    std::unique_ptr<QTemporaryDir> m_directory;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
};

} // namespace keylens::demo
