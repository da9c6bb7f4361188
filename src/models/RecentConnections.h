#pragma once

#include "redis/ConnectionOptions.h"

#include <QString>

#include <vector>

class QSettings;

namespace keylens::models {

struct ConnectionProfile;

// A server the window was connected to: a saved connection (by id), or a URI without its password. The welcome
// page offers them again.
struct RecentConnection
{
    QString name; // as the connection bar showed it
    QString uri;  // redis://[user@]host:port/db or unix://…, never with a password
    QString savedId;
    // What the URI cannot say: the CA and client certificate files of a TLS connection, the SSH tunnel, and that it
    // was read-only (reopened writable, it would not be the connection the user chose).
    redis::TlsOptions tls;
    redis::SshOptions ssh;
    bool readOnly = false;

    bool operator==(const RecentConnection&) const = default;
};

// The last few connections, newest first, kept in QSettings under "recent/".
class RecentConnections
{
public:
    static constexpr std::size_t Kept = 8;

    explicit RecentConnections(QSettings* settings);

    const std::vector<RecentConnection>& list() const { return m_list; }
    // Puts it first; an earlier entry for the same saved connection or URI goes.
    void remember(const RecentConnection& connection);
    // The recent connections that are not saved ones, as the connection form's fields (named as the connection bar
    // showed them), newest first; a URI that no longer parses is left out.
    std::vector<ConnectionProfile> unsavedProfiles() const;

private:
    QSettings* m_settings;
    std::vector<RecentConnection> m_list;
};

} // namespace keylens::models
