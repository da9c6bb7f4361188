#include "models/ConnectionTester.h"

#include "redis/Connection.h"

namespace keylens::models {

ConnectionTester::ConnectionTester(QObject* parent)
    : QObject(parent)
{}

void ConnectionTester::test(const redis::ConnectionOptions& options)
{
    constexpr int TestLane = 1; // a newer test supersedes this one
    m_tests.post(
        [this, options](const base::JobContext& job) -> base::JobRunner::Delivery {
            redis::Result<std::unique_ptr<redis::Connection>> opened =
                redis::Connection::open(options, job.cancel.get());
            std::optional<redis::Error> failure;
            if (!opened)
                failure = opened.error();
            return [this, failure, address = options.description()] { Q_EMIT tested(failure, address); };
        },
        TestLane);
}

} // namespace keylens::models
