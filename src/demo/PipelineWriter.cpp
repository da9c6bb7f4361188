#include "demo/PipelineWriter.h"

namespace keylens::demo {

PipelineWriter::PipelineWriter(redis::Connection& connection, std::size_t window)
    : m_connection(connection)
    , m_window(window)
{}

void PipelineWriter::command(std::initializer_list<QByteArrayView> arguments)
{
    command(std::span<const QByteArrayView>(arguments.begin(), arguments.size()));
}

void PipelineWriter::command(std::span<const QByteArrayView> arguments)
{
    if (m_error)
        return;
    m_connection.append(arguments);
    ++m_sent;
    if (m_connection.pendingReplies() >= m_window)
        drain();
}

void PipelineWriter::drain()
{
    while (m_connection.pendingReplies() > 0) {
        redis::Result<redis::Reply> reply = m_connection.read();
        if (!reply) {
            m_error = reply.error();
            return;
        }
        if (reply->isError() && !m_error)
            m_error = redis::errorFromReply(reply->bytes(), "a write");
    }
}

redis::Status PipelineWriter::finish()
{
    drain();
    if (m_error)
        return *m_error;
    return {};
}

} // namespace keylens::demo
