#pragma once

#include "demo/RedisServerProcess.h"

#include <QTcpServer>
#include <QTest>

#include <memory>

// Starts a private redis-server for one test, or fails the test with the reason.
#define KEYLENS_START_SERVER(server, ...)                                                                              \
    do {                                                                                                               \
        const keylens::redis::Status started_ = (server).start(__VA_ARGS__);                                           \
        QVERIFY2(started_.ok(), started_.ok() ? "" : qPrintable(started_.error().message));                            \
    } while (false)

namespace keylens::test {

// A loopback port that was free a moment ago, with nothing listening on it now.
inline quint16 freeLoopbackPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost);
    return probe.serverPort();
}

// A private redis-server with `config` (redis.conf lines), or nullptr (and a warning with the reason).
inline std::unique_ptr<demo::RedisServerProcess> startServerWith(const QByteArray& config = {})
{
    auto server = std::make_unique<demo::RedisServerProcess>();
    demo::RedisServerProcess::Options options;
    options.configText = config;
    if (const redis::Status started = server->start(options); !started) {
        qWarning("%s", qPrintable(started.error().message));
        return nullptr;
    }
    return server;
}

} // namespace keylens::test
