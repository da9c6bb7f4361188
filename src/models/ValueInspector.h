#pragma once

#include "inspect/KeyReader.h"
#include "inspect/PayloadDecoder.h"
#include "redis/ConnectionOptions.h"
#include "redis/ServerStatus.h"

#include <QObject>

#include <memory>

class QThread;

namespace keylens::models {

// Reads single keys for the details pane on a thread of its own, with its own connection, so a slow
// server or a big value never freezes the window. Requests get ids; only the answer to the latest
// request of each kind is delivered (clicking through keys quickly shows the last one, not a queue).
class ValueInspector : public QObject
{
    Q_OBJECT
public:
    explicit ValueInspector(QObject* parent = nullptr);
    ~ValueInspector() override; // waits for the worker thread

    // Later requests use this server; the connection opens on the first request.
    void setConnection(const redis::ConnectionOptions& options);

    struct Overview
    {
        std::uint64_t request = 0;
        inspect::KeyOverview key;
        inspect::DecodedValue value; // for strings
        QString error;               // the connection failed: nothing else is filled in
    };
    struct Page
    {
        std::uint64_t request = 0;
        QByteArray key;
        inspect::ValuePage page;
        QString error;
    };

    std::uint64_t requestOverview(const QByteArray& key);
    std::uint64_t requestPage(const QByteArray& key, keyspace::KeyType type, const inspect::ValueQuery& query,
                              const QByteArray& position, int size);
    struct Status
    {
        std::uint64_t request = 0;
        redis::ServerStatus status;
        QString error; // the connection failed
    };
    // INFO, section by section, for the server panel.
    std::uint64_t requestServerStatus();

    // UNLINK (which a read-only connection's write gate refuses before sending it). The caller asks the user first.
    std::uint64_t requestDelete(const QByteArray& key);
    // The element counts of these keys. Ids and tag are the caller's, handed back with the counts (the
    // tag tells a later scan's answer from an earlier one's).
    void requestLengths(std::uint64_t tag, std::vector<std::uint32_t> ids,
                        std::vector<std::pair<QByteArray, keyspace::KeyType>> keys);

Q_SIGNALS:
    void overviewReady(const keylens::models::ValueInspector::Overview& overview);
    void pageReady(const keylens::models::ValueInspector::Page& page);
    void serverStatusReady(const keylens::models::ValueInspector::Status& status);
    void deleteDone(std::uint64_t request, const QByteArray& key, const QString& error);
    void lengthsReady(std::uint64_t tag, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& lengths);

private:
    class Worker;
    QThread* m_thread;
    Worker* m_worker;
    std::uint64_t m_nextRequest = 0;
    std::uint64_t m_latestOverview = 0;
    std::uint64_t m_latestPage = 0;
    std::uint64_t m_latestStatus = 0;
};

} // namespace keylens::models
