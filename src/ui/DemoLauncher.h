#pragma once

#include "demo/DemoKeyspace.h"
#include "redis/ConnectionOptions.h"

#include <QObject>

#include <atomic>
#include <memory>

class QThread;

namespace keylens::demo {
class RedisServerProcess;
}

namespace keylens::ui {

// `keylens --demo`: a private redis-server seeded with the demo keyspace. The server lives as long as
// this object (and dies with the process if the app is killed).
class DemoLauncher : public QObject
{
    Q_OBJECT
public:
    explicit DemoLauncher(QObject* parent = nullptr);
    ~DemoLauncher() override; // stops seeding, then the server

    // Starts the server at once and seeds it on a worker thread; ready() or failed() follows.
    void start(std::uint64_t keys, quint16 port = 0); // port 0: a free one

Q_SIGNALS:
    void ready(const keylens::redis::ConnectionOptions& options);
    void failed(const QString& reason);

private:
    std::unique_ptr<demo::RedisServerProcess> m_server;
    QThread* m_seeder = nullptr;
    std::atomic<bool> m_stop{false};
};

} // namespace keylens::ui
