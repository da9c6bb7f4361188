#pragma once

#include "keyspace/Delimiters.h"
#include "redis/ConnectionOptions.h"
#include "redis/Error.h"
#include "scan/ScanTypes.h"

#include <QColor>
#include <QString>

#include <optional>

namespace keylens::models {

struct ConnectionProfile;
struct RecentConnection;

// Where the window connects and how it scans there: the connection, the tree's delimiters, the name and colour the
// connection bar shows, the scan's pace and the lint profile. Made from a saved connection, a recent one, or by hand
// (a URI, the welcome page's local server, the demo).
struct ConnectionTarget
{
    redis::ConnectionOptions options;
    keyspace::Delimiters delimiter = ':';
    QString name; // shown in the connection bar; the address when empty
    QColor colour;
    bool production = false;              // the console asks before a dangerous command
    double maxKeysPerSecond = 0;          // 0: as fast as the server answers
    std::uint64_t sampleSize = 0;         // memory of a random sample of about this many keys; 0: every key
    bool exactMemory = false;             // --exact-memory: big collections measured whole (Scan > Measure…)
    std::optional<scan::ScanSpeed> speed; // none: scan::defaultSpeedFor the server
    QString lintProfile;                  // a built-in profile's name or a profile file; empty: default
    QString savedId;                      // the saved connection it came from
    bool remember = true;                 // offered again on the welcome page (not the demo's passing port)
    bool demo = false;                    // the demo's own server
    // An RDB file read instead of a server (ScanOptions::rdbFile): no server is touched. Its options name the file as
    // a Unix socket, so that what would read values (the details pane, the console) fails to connect and says so,
    // rather than reach a server that happens to listen on the default port.
    QString rdbFile;
    // The file's TTLs as of its save (true) or of now (keylens FILE --ttl-from); unset: the window's setting.
    std::optional<bool> ttlFromSave;

    static ConnectionTarget offlineFile(const QString& path);

    // A saved connection with the password it gives (the keychain's or one typed); an error when its fields do not
    // make a connection.
    static redis::Result<ConnectionTarget> fromProfile(const ConnectionProfile& profile, const QByteArray& password);
    // A recent connection: its URI, with the TLS files and the SSH tunnel a URI cannot carry.
    static redis::Result<ConnectionTarget> fromRecent(const RecentConnection& recent);
    // The form's fields for this target (a connection not saved yet): its password is asked for, never kept.
    ConnectionProfile toProfile() const;
    // The name, or the address.
    QString displayName() const { return name.isEmpty() ? options.description() : name; }
};

} // namespace keylens::models
