#include "ui/PasswordVault.h"

#include <qt6keychain/keychain.h>

namespace keylens::ui {

PasswordVault::PasswordVault(QObject* parent)
    : QObject(parent)
{}

void PasswordVault::store(const QString& connectionId, const QByteArray& password,
                          std::function<void(const QString&)> done)
{
    auto* job = new QKeychain::WritePasswordJob(serviceName(), this);
    job->setInsecureFallback(false); // a plain-text copy is exactly what the keychain is for avoiding
    job->setKey(connectionId);
    job->setBinaryData(password);
    connect(job, &QKeychain::Job::finished, this, [job, done = std::move(done)] {
        done(job->error() == QKeychain::NoError ? QString() : job->errorString());
    });
    job->start();
}

void PasswordVault::read(const QString& connectionId, std::function<void(const QByteArray&, const QString&)> done)
{
    auto* job = new QKeychain::ReadPasswordJob(serviceName(), this);
    job->setInsecureFallback(false);
    job->setKey(connectionId);
    connect(job, &QKeychain::Job::finished, this, [job, done = std::move(done)] {
        if (job->error() == QKeychain::NoError)
            done(job->binaryData(), QString());
        else
            done({}, job->errorString());
    });
    job->start();
}

void PasswordVault::remove(const QString& connectionId)
{
    auto* job = new QKeychain::DeletePasswordJob(serviceName(), this);
    job->setInsecureFallback(false);
    job->setKey(connectionId);
    job->start();
}

} // namespace keylens::ui
