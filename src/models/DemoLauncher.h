#pragma once

#include "base/JobRunner.h"
#include "base/NextTurn.h"
#include "demo/DemoKeyspace.h"
#include "redis/ConnectionOptions.h"

#include <QObject>

#include <memory>

namespace keylens::demo {
class RedisServerProcess;
}

namespace keylens::models {

// `keylens --demo`: a private redis-server seeded with the demo keyspace. The server lives as long as
// this object (and dies with the process if the app is killed).
class DemoLauncher : public QObject
{
    Q_OBJECT
public:
    explicit DemoLauncher(QObject* parent = nullptr);
    ~DemoLauncher() override; // stops seeding (within 50 ms), then the server

    // Starts the server at once and seeds it on a worker thread; ready() or failed() follows.
    void start(std::uint64_t keys, quint16 port = 0); // port 0: a free one

Q_SIGNALS:
    void ready(const keylens::redis::ConnectionOptions& options);
    void failed(const QString& reason);

private:
    std::unique_ptr<demo::RedisServerProcess> m_server;
    base::NextTurn m_failure{QStringLiteral("demo failure"), this}; // a server that did not start, said after start()
    // Last: destroyed first, it cancels the seeding and joins its thread while the server still runs.
    base::JobRunner m_seeder{QStringLiteral("keylens-demo-seeder")};
};

} // namespace keylens::models
