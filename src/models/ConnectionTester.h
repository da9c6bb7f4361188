#pragma once

#include "base/JobRunner.h"
#include "redis/ConnectionOptions.h"
#include "redis/Error.h"

#include <QObject>

#include <optional>

namespace keylens::models {

// The connection form's Test: opens a connection with the options as the scan would (TLS, SSH, Sentinel, the
// login, SELECT) on a thread of its own, and says how it went. A newer test supersedes one still running.
class ConnectionTester : public QObject
{
    Q_OBJECT

public:
    explicit ConnectionTester(QObject* parent = nullptr);

    void test(const redis::ConnectionOptions& options);

Q_SIGNALS:
    // `failure`: why it could not connect; none: connected. `address` says where, without the password.
    void tested(const std::optional<keylens::redis::Error>& failure, const QString& address);

private:
    base::JobRunner m_tests{QStringLiteral("keylens connection test")};
};

} // namespace keylens::models
