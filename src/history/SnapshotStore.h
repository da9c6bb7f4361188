#pragma once

#include "history/Snapshot.h"

#include <QString>

#include <vector>

namespace keylens::history {

// The snapshots the browser keeps: one folder per server and database under a root (the user's data directory,
// QStandardPaths::AppDataLocation + "/snapshots"), one file per scan, named by its time (`20261205-234812.kls`, a
// partial scan's `…-partial.kls`). After each save the folder keeps the newest `keep` files and, older than those,
// the newest of each day: a server scanned every hour for a year holds 100 + 365 files, a few MB.
class SnapshotStore
{
public:
    struct Entry
    {
        QString path;
        std::int64_t takenAtMs = 0;
        bool complete = false;
    };

    explicit SnapshotStore(QString root, std::size_t keep = 100);

    // The folder of a server's database: its address with anything but letters, digits, '.', '-' made '_'.
    QString folderOf(const QByteArray& address, int db) const;
    // Writes the snapshot into its server's folder and prunes it. Returns an error sentence, or an empty string.
    QString save(const Snapshot& snapshot);
    // The server's snapshots, oldest first, from their names (nothing is read).
    std::vector<Entry> list(const QByteArray& address, int db) const { return entriesIn(folderOf(address, db)); }
    // The same of a folder folderOf() named.
    static std::vector<Entry> entriesIn(const QString& folder);

private:
    void prune(const QString& folder) const;

    QString m_root;
    std::size_t m_keep;
};

} // namespace keylens::history
