#pragma once

#include <QObject>
#include <QString>

#include <functional>

namespace keylens::ui {

// Passwords of saved connections, kept in the OS keychain through QtKeychain (Secret Service, KWallet,
// macOS Keychain, Windows Credential Store). Never falls back to a plain-text file: when no keychain
// answers, the callback gets the reason and the caller offers "ask every time" instead.
class PasswordVault : public QObject
{
    Q_OBJECT
public:
    explicit PasswordVault(QObject* parent = nullptr);

    // `done` gets an empty string on success, else why it failed.
    void store(const QString& connectionId, const QByteArray& password, std::function<void(const QString&)> done);
    void read(const QString& connectionId, std::function<void(const QByteArray&, const QString&)> done);
    void remove(const QString& connectionId);

    static QString serviceName() { return QStringLiteral("keylens"); }
};

} // namespace keylens::ui
