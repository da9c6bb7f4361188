#include "models/DemoLauncher.h"

#include "demo/RedisServerProcess.h"
#include "redis/Connection.h"

namespace keylens::models {

DemoLauncher::DemoLauncher(QObject* parent)
    : QObject(parent)
    , m_server(std::make_unique<demo::RedisServerProcess>())
{}

DemoLauncher::~DemoLauncher() = default;

void DemoLauncher::start(std::uint64_t keys, quint16 port)
{
    demo::RedisServerProcess::Options serverOptions;
    serverOptions.port = port;
    if (redis::Status started = m_server->start(serverOptions); !started) {
        m_failure.post([this, message = started.error().message] { Q_EMIT failed(message); });
        return;
    }
    const redis::ConnectionOptions options = m_server->connectionOptions();
    m_seeder.post([this, options, keys](const base::JobContext& job) -> base::JobRunner::Delivery {
        demo::DemoOptions demoOptions;
        demoOptions.keys = keys;
        demoOptions.shouldStop = [&job] { return job.cancelled(); };
        redis::Result<std::unique_ptr<redis::Connection>> connection =
            redis::Connection::open(options, job.cancel.get());
        const redis::Status seeded =
            connection ? demo::seedDemoKeyspace(**connection, demoOptions) : redis::Status(connection.error());
        return [this, seeded, options] {
            if (seeded)
                Q_EMIT ready(options);
            else
                Q_EMIT failed(tr("Seeding the demo keyspace failed: %1").arg(seeded.error().message));
        };
    });
}

} // namespace keylens::models
