#include "models/ConnectionTarget.h"

#include "models/RecentConnections.h"
#include "models/SavedConnections.h"

#include <QFileInfo>

#include <utility>

namespace keylens::models {

redis::Result<ConnectionTarget> ConnectionTarget::fromProfile(const ConnectionProfile& profile,
                                                              const QByteArray& password)
{
    redis::Result<redis::ConnectionOptions> options = profile.connectionOptions(password);
    if (!options)
        return options.error();
    ConnectionTarget target;
    target.options = *options;
    target.delimiter = profile.delimiter;
    target.name = profile.name;
    target.savedId = profile.id;
    target.colour = profile.colour;
    target.production = profile.production;
    target.speed = profile.speed;
    target.lintProfile = profile.lintProfile;
    return target;
}

redis::Result<ConnectionTarget> ConnectionTarget::fromRecent(const RecentConnection& recent)
{
    redis::Result<redis::ConnectionOptions> options = redis::parseRedisUri(recent.uri.toUtf8());
    if (!options)
        return options.error();
    ConnectionTarget target;
    target.options = *options;
    // Kept without its password (uriWithoutPassword: redis://alice@host), whose user-info a URI would take for a
    // password: it is the ACL user. Read as a password, two users of one server were two "127.0.0.1:7602" reopened
    // with the user's name sent as the password.
    if (target.options.hasPassword && target.options.user.isEmpty()) {
        target.options.user = std::exchange(target.options.password, {});
        target.options.hasPassword = false;
    }
    if (target.options.tls.enabled)
        target.options.tls = recent.tls; // its CA and certificate files, which the URI cannot carry
    target.options.ssh = recent.ssh;
    target.options.readOnly = recent.readOnly;
    target.name = recent.name;
    return target;
}

ConnectionProfile ConnectionTarget::toProfile() const
{
    ConnectionProfile profile;
    profile.kind = options.transport == redis::ConnectionOptions::Transport::Unix ? ConnectionProfile::Kind::Socket
                                                                                  : ConnectionProfile::Kind::HostPort;
    if (!options.sentinel.masterName.isEmpty()) {
        profile.kind = ConnectionProfile::Kind::Sentinel;
        profile.sentinels = options.sentinel.placesText(u", ");
        profile.masterName = options.sentinel.masterName;
    }
    profile.host = options.host;
    profile.port = options.port;
    profile.socketPath = options.socketPath;
    profile.user = options.user;
    profile.db = options.db;
    profile.delimiter = delimiter;
    profile.readOnly = options.readOnly;
    profile.speed = speed;
    profile.connectTimeoutMs = options.connectTimeoutMs;
    profile.commandTimeoutMs = options.commandTimeoutMs;
    profile.colour = colour;
    profile.production = production;
    profile.lintProfile = lintProfile;
    profile.tls = options.tls;
    profile.ssh = options.ssh;
    if (options.hasPassword)
        profile.passwordMode = ConnectionProfile::PasswordMode::AskEveryTime;
    return profile;
}

ConnectionTarget ConnectionTarget::offlineFile(const QString& path)
{
    ConnectionTarget target;
    target.rdbFile = path;
    target.options.transport = redis::ConnectionOptions::Transport::Unix;
    target.options.socketPath = QFileInfo(path).absoluteFilePath();
    // A pipe (`keylens <(gunzip -c dump.rdb.gz)`) is named by its path: "63" of /dev/fd/63 says nothing.
    target.name = QFileInfo(path).isFile() ? QFileInfo(path).fileName() : path;
    target.remember = false; // a file, not a server to offer again
    return target;
}

} // namespace keylens::models
