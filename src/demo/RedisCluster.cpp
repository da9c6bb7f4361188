#include "demo/RedisCluster.h"

#include "redis/Connection.h"
#include "redis/ServerInfo.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>

namespace keylens::demo {

RedisCluster::RedisCluster() = default;

RedisCluster::~RedisCluster()
{
    stop();
}

redis::Status RedisCluster::start(const Options& options)
{
    stop();
    if (options.primaries < 3)
        return redis::Error{redis::ErrorKind::Usage, QStringLiteral("a Redis Cluster needs at least 3 primaries")};
    const QString redisCli = QStandardPaths::findExecutable(QStringLiteral("redis-cli"));
    if (redisCli.isEmpty())
        return redis::Error{redis::ErrorKind::Unsupported,
                            QStringLiteral("redis-cli was not found on PATH (Debian: apt-get install redis-tools)")};
    const int count = options.primaries * (1 + options.replicasPerPrimary);
    QStringList addresses;
    for (int i = 0; i < count; ++i) {
        RedisServerProcess::Options node;
        node.survivesUs = options.survivesUs;
        // nodes.conf lands in the node's own directory (its --dir).
        node.extraArguments =
            QStringList{QStringLiteral("--cluster-enabled"),      QStringLiteral("yes"),
                        QStringLiteral("--cluster-config-file"),  QStringLiteral("nodes.conf"),
                        QStringLiteral("--cluster-node-timeout"), QString::number(options.nodeTimeoutMs)}
            << options.extraArguments;
        auto server = std::make_unique<RedisServerProcess>();
        if (redis::Status started = server->start(node); !started) {
            stop();
            return started;
        }
        addresses << QStringLiteral("127.0.0.1:%1").arg(server->port());
        m_nodes.push_back(std::move(server));
    }
    QProcess create;
    create.setProcessChannelMode(QProcess::MergedChannels);
    create.start(redisCli,
                 QStringList{QStringLiteral("--cluster"), QStringLiteral("create")}
                     << addresses
                     << QStringList{QStringLiteral("--cluster-replicas"), QString::number(options.replicasPerPrimary),
                                    QStringLiteral("--cluster-yes")});
    if (!create.waitForFinished(60000) || create.exitStatus() != QProcess::NormalExit || create.exitCode() != 0) {
        const QByteArray output = create.readAll().right(600);
        stop();
        return redis::Error{redis::ErrorKind::Server,
                            QStringLiteral("redis-cli --cluster create failed: %1").arg(QString::fromUtf8(output))};
    }
    return waitUntilFormed(30000);
}

redis::Status RedisCluster::waitUntilFormed(int timeoutMs)
{
    // redis-cli returns once the nodes agree on the slots; each still has to see the others as reachable, and each
    // replica to have synced with its primary.
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        bool allOk = true;
        for (const auto& node : m_nodes) {
            redis::Result<std::unique_ptr<redis::Connection>> connection =
                redis::Connection::open(node->connectionOptions());
            redis::Result<redis::Reply> info = connection ? (*connection)->command({"CLUSTER", "INFO"})
                                                          : redis::Result<redis::Reply>(connection.error());
            if (!info || redis::infoField(info->bytes(), "cluster_state") != "ok") {
                allOk = false;
                break;
            }
            // A replica serves reads (and acknowledges WAIT) once its first sync is done.
            redis::Result<redis::Reply> replication = (*connection)->command({"INFO", "replication"});
            if (!replication || (redis::infoField(replication->bytes(), "role") == "slave" &&
                                 redis::infoField(replication->bytes(), "master_link_status") != "up")) {
                allOk = false;
                break;
            }
        }
        if (allOk)
            return {};
        if (timer.elapsed() > timeoutMs)
            return redis::Error{
                redis::ErrorKind::Timeout,
                QStringLiteral("the cluster did not reach cluster_state:ok within %1 s").arg(timeoutMs / 1000)};
        QThread::msleep(100);
    }
}

void RedisCluster::stop()
{
    for (auto& node : m_nodes)
        node->stop();
    m_nodes.clear();
}

redis::ConnectionOptions RedisCluster::connectionOptions() const
{
    return m_nodes.empty() ? redis::ConnectionOptions() : m_nodes.front()->connectionOptions();
}

QString RedisCluster::uri() const
{
    return m_nodes.empty() ? QString() : m_nodes.front()->uri();
}

} // namespace keylens::demo
