#pragma once

#include "redis/Connection.h"

#include <QByteArrayView>

#include <initializer_list>
#include <span>

namespace keylens::demo {

// Sends many write commands with few round trips: replies are read every `window` commands.
// The first error (a failed connection or an error reply) is kept and reported by finish().
class PipelineWriter
{
public:
    explicit PipelineWriter(redis::Connection& connection, std::size_t window = 1000);

    void command(std::initializer_list<QByteArrayView> arguments);
    void command(std::span<const QByteArrayView> arguments);
    redis::Status finish();
    std::size_t commandsSent() const { return m_sent; }

private:
    void drain();

    redis::Connection& m_connection;
    std::size_t m_window;
    std::size_t m_sent = 0;
    std::optional<redis::Error> m_error;
};

} // namespace keylens::demo
