#include "models/ValueInspector.h"

#include "redis/Connection.h"

#include <QThread>

namespace keylens::models {

// Lives on the inspector's thread; every call arrives as a queued functor.
class ValueInspector::Worker : public QObject
{
public:
    redis::ConnectionOptions options;
    std::unique_ptr<redis::Connection> connection;

    // Opens the connection when needed; a failed command drops it so the next request reconnects.
    redis::Connection* ensureConnected(QString* error)
    {
        if (connection)
            return connection.get();
        redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(options);
        if (!opened) {
            *error = opened.error().message;
            return nullptr;
        }
        connection = std::move(*opened);
        return connection.get();
    }
};

ValueInspector::ValueInspector(QObject* parent)
    : QObject(parent)
    , m_thread(new QThread)
    , m_worker(new Worker)
{
    m_thread->setObjectName(QStringLiteral("keylens value reader"));
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
}

ValueInspector::~ValueInspector()
{
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

void ValueInspector::setConnection(const redis::ConnectionOptions& options)
{
    Worker* worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, options] {
        worker->connection.reset();
        worker->options = options;
    });
}

std::uint64_t ValueInspector::requestOverview(const QByteArray& key)
{
    const std::uint64_t request = ++m_nextRequest;
    m_latestOverview = request;
    Worker* worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, request, key] {
        Overview overview;
        overview.request = request;
        if (redis::Connection* connection = worker->ensureConnected(&overview.error)) {
            redis::Result<inspect::KeyOverview> read = inspect::readKeyOverview(*connection, key);
            if (read) {
                overview.key = std::move(*read);
                if (overview.key.type == keyspace::KeyType::String)
                    overview.value = inspect::decodeValue(overview.key.valuePrefix);
            } else {
                overview.error = read.error().message;
                worker->connection.reset();
            }
        }
        // Back on the GUI thread; the inspector outlives this (its destructor waits for the thread).
        QMetaObject::invokeMethod(this, [this, overview = std::move(overview)] {
            if (overview.request == m_latestOverview)
                Q_EMIT overviewReady(overview);
        });
    });
    return request;
}

std::uint64_t ValueInspector::requestPage(const QByteArray& key, keyspace::KeyType type,
                                          const inspect::ValueQuery& query, const QByteArray& position, int size)
{
    const std::uint64_t request = ++m_nextRequest;
    m_latestPage = request;
    Worker* worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, request, key, type, query, position, size] {
        Page page;
        page.request = request;
        page.key = key;
        if (redis::Connection* connection = worker->ensureConnected(&page.error)) {
            redis::Result<inspect::ValuePage> read =
                inspect::readValuePage(*connection, key, type, query, position, size);
            if (read) {
                page.page = std::move(*read);
            } else {
                page.error = read.error().message;
                if (read.error().isConnectionError() || read.error().kind == redis::ErrorKind::ConnectionLost)
                    worker->connection.reset();
            }
        }
        QMetaObject::invokeMethod(this, [this, page = std::move(page)] {
            if (page.request == m_latestPage)
                Q_EMIT pageReady(page);
        });
    });
    return request;
}

std::uint64_t ValueInspector::requestServerStatus()
{
    const std::uint64_t request = ++m_nextRequest;
    m_latestStatus = request;
    Worker* worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, request] {
        Status status;
        status.request = request;
        if (redis::Connection* connection = worker->ensureConnected(&status.error)) {
            redis::Result<redis::ServerStatus> read = redis::readServerStatus(*connection);
            if (read) {
                status.status = std::move(*read);
            } else {
                status.error = read.error().message;
                worker->connection.reset();
            }
        }
        QMetaObject::invokeMethod(this, [this, status = std::move(status)] {
            if (status.request == m_latestStatus)
                Q_EMIT serverStatusReady(status);
        });
    });
    return request;
}

void ValueInspector::requestLengths(std::uint64_t tag, std::vector<std::uint32_t> ids,
                                    std::vector<std::pair<QByteArray, keyspace::KeyType>> keys)
{
    Worker* worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, tag, ids = std::move(ids), keys = std::move(keys)] {
        QString error;
        std::vector<std::pair<std::uint32_t, std::uint64_t>> lengths;
        if (redis::Connection* connection = worker->ensureConnected(&error)) {
            redis::Result<std::vector<std::optional<std::uint64_t>>> read = inspect::readLengths(*connection, keys);
            if (read) {
                for (std::size_t i = 0; i < read->size(); ++i) {
                    if ((*read)[i])
                        lengths.emplace_back(ids[i], *(*read)[i]);
                }
            } else {
                worker->connection.reset();
            }
        }
        // Lengths are a hint for the overlays: a failure here just leaves the big collections unmarked.
        QMetaObject::invokeMethod(this,
                                  [this, tag, lengths = std::move(lengths)] { Q_EMIT lengthsReady(tag, lengths); });
    });
}

std::uint64_t ValueInspector::requestDelete(const QByteArray& key)
{
    const std::uint64_t request = ++m_nextRequest;
    Worker* worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, request, key] {
        QString error;
        if (redis::Connection* connection = worker->ensureConnected(&error)) {
            redis::Result<redis::Reply> reply = connection->command({"UNLINK", key});
            if (!reply)
                error = reply.error().message;
            else if (reply->isError())
                error = redis::errorFromReply(reply->bytes(), "UNLINK").message;
            else if (reply->integer() == 0)
                error = QStringLiteral("The key was already gone.");
        }
        QMetaObject::invokeMethod(this, [this, request, key, error] { Q_EMIT deleteDone(request, key, error); });
    });
    return request;
}

} // namespace keylens::models
