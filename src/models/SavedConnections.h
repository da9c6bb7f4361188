#pragma once

#include "keyspace/Delimiters.h"
#include "redis/ConnectionOptions.h"
#include "scan/ScanSpeed.h"

#include <QAbstractListModel>
#include <QColor>
#include <QString>

#include <vector>

class QSettings;

namespace keylens::models {

// A saved connection. The password is never part of it: it lives in the OS keychain (or is asked for
// every time), so the settings file can be shared or backed up without leaking credentials.
struct ConnectionProfile
{
    enum class Kind { HostPort, Socket, Uri, Sentinel };
    enum class PasswordMode { None, Keychain, AskEveryTime };

    QString id; // stable across renames; the keychain entry is keyed by it
    QString name;
    Kind kind = Kind::HostPort;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QString socketPath;
    QString uri;           // without its password
    QString sentinels;     // Sentinel: "host[:port],host[:port]…" (26379 by default)
    QByteArray masterName; // Sentinel: the name the sentinels monitor the master under
    QByteArray user;
    int db = 0;
    keyspace::Delimiters delimiter = ':';
    QString lintProfile; // a built-in naming profile's name or a profile file; empty: default
    bool readOnly = false;
    // Tagged production: the console asks before a dangerous command (FLUSHALL, KEYS, CONFIG SET…).
    bool production = false;
    std::optional<scan::ScanSpeed> speed; // none: gentle unless the server is local
    int connectTimeoutMs = 5000;          // as -t
    int commandTimeoutMs = 30000;         // as --command-timeout
    QColor colour;                        // invalid: no colour tag
    PasswordMode passwordMode = PasswordMode::None;
    redis::TlsOptions tls; // a rediss:// URI turns it on too
    redis::SshOptions ssh; // no host: no tunnel

    // Where to connect, with the password given (empty when there is none).
    redis::Result<redis::ConnectionOptions> connectionOptions(const QByteArray& password) const;
    // host:port, the socket path, the URI or the master and its sentinels, and the SSH server if any: for lists and
    // titles.
    QString address() const;
    // The sentinels and master name as a redis+sentinel:// URI, which parseRedisUri checks.
    QByteArray sentinelUri() const;
};

// The saved connections, kept in QSettings under "connections/". A list model for the dialog.
class SavedConnections : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { IdRole = Qt::UserRole + 1 };

    explicit SavedConnections(QSettings* settings, QObject* parent = nullptr);

    void reload();
    const std::vector<ConnectionProfile>& profiles() const { return m_profiles; }
    const ConnectionProfile* find(const QString& idOrName) const;
    // Adds or replaces (by id) and writes the settings at once. A profile without id gets one.
    QString save(ConnectionProfile profile);
    void remove(const QString& id);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    void write();

    QSettings* m_settings;
    std::vector<ConnectionProfile> m_profiles;
};

} // namespace keylens::models
