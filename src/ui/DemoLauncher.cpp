#include "ui/DemoLauncher.h"

#include "demo/RedisServerProcess.h"
#include "redis/Connection.h"

#include <QThread>

namespace keylens::ui {

DemoLauncher::DemoLauncher(QObject* parent)
    : QObject(parent)
    , m_server(std::make_unique<demo::RedisServerProcess>())
{}

DemoLauncher::~DemoLauncher()
{
    m_stop = true;
    if (m_seeder) {
        m_seeder->wait();
        delete m_seeder;
    }
}

void DemoLauncher::start(std::uint64_t keys, quint16 port)
{
    demo::RedisServerProcess::Options serverOptions;
    serverOptions.port = port;
    if (redis::Status started = m_server->start(serverOptions); !started) {
        QMetaObject::invokeMethod(
            this, [this, message = started.error().message] { Q_EMIT failed(message); }, Qt::QueuedConnection);
        return;
    }
    const redis::ConnectionOptions options = m_server->connectionOptions();
    m_seeder = QThread::create([this, options, keys] {
        demo::DemoOptions demoOptions;
        demoOptions.keys = keys;
        demoOptions.shouldStop = [this] { return m_stop.load(); };
        redis::Result<std::unique_ptr<redis::Connection>> connection = redis::Connection::open(options, &m_stop);
        const redis::Status seeded =
            connection ? demo::seedDemoKeyspace(**connection, demoOptions) : redis::Status(connection.error());
        if (m_stop)
            return;
        QMetaObject::invokeMethod(this, [this, seeded, options] {
            if (seeded)
                Q_EMIT ready(options);
            else
                Q_EMIT failed(QStringLiteral("Seeding the demo keyspace failed: %1").arg(seeded.error().message));
        });
    });
    m_seeder->start();
}

} // namespace keylens::ui
