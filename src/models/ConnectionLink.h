#pragma once

#include "base/JobRunner.h"
#include "redis/Connection.h"

#include <memory>

namespace keylens::models {

// One server connection, opened on first use and again after it broke, used by one JobRunner's thread. Each job
// lends it its cancel flag.
class ConnectionLink
{
public:
    redis::ConnectionOptions options;

    redis::Connection* connect(const base::JobContext& job, QString* error)
    {
        m_cancel = job.cancel; // kept alive for as long as the connection may look at it
        if (m_connection && !m_connection->isBroken()) {
            m_connection->setCancelFlag(m_cancel.get());
            return m_connection.get();
        }
        m_connection.reset();
        redis::Result<std::unique_ptr<redis::Connection>> opened = redis::Connection::open(options, m_cancel.get());
        if (!opened) {
            *error = opened.error().message;
            return nullptr;
        }
        m_connection = std::move(*opened);
        return m_connection.get();
    }
    void reset(const redis::ConnectionOptions& newOptions)
    {
        m_connection.reset();
        options = newOptions;
    }

private:
    std::unique_ptr<redis::Connection> m_connection;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace keylens::models
