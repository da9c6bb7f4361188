#include "history/SnapshotStore.h"

#include "history/SnapshotFile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>

#include <algorithm>
#include <cctype>
#include <set>

namespace keylens::history {

namespace {

constexpr QLatin1StringView TimeFormat("yyyyMMdd-HHmmsszzz");
constexpr QLatin1StringView Suffix(".kls");
constexpr QLatin1StringView PartialMark("-partial");

std::optional<SnapshotStore::Entry> entryOf(const QDir& folder, const QString& name)
{
    if (!name.endsWith(Suffix))
        return std::nullopt;
    QString stem = name.chopped(Suffix.size());
    SnapshotStore::Entry entry;
    entry.complete = !stem.endsWith(PartialMark);
    if (!entry.complete)
        stem.chop(PartialMark.size());
    const QDateTime when = QDateTime::fromString(stem, TimeFormat);
    if (!when.isValid())
        return std::nullopt;
    entry.takenAtMs = QDateTime(when.date(), when.time(), Qt::UTC).toMSecsSinceEpoch();
    entry.path = folder.filePath(name);
    return entry;
}

} // namespace

SnapshotStore::SnapshotStore(QString root, std::size_t keep)
    : m_root(std::move(root))
    , m_keep(std::max<std::size_t>(1, keep))
{}

QString SnapshotStore::folderOf(const QByteArray& address, int db) const
{
    QString name;
    for (const char c : address)
        name +=
            (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? QLatin1Char(c) : QLatin1Char('_');
    return QDir(m_root).filePath(name + QStringLiteral("-db") + QString::number(db));
}

QString SnapshotStore::save(const Snapshot& snapshot)
{
    const QString folder = folderOf(snapshot.server.address, snapshot.server.db);
    if (!QDir().mkpath(folder))
        return QStringLiteral("cannot create the snapshot folder %1").arg(folder);
    const QString name = QDateTime::fromMSecsSinceEpoch(snapshot.takenAtMs, Qt::UTC).toString(TimeFormat) +
                         (snapshot.complete ? QString() : QString(PartialMark)) + Suffix;
    if (QString failed = writeSnapshotFile(QDir(folder).filePath(name), snapshot); !failed.isEmpty())
        return failed;
    prune(folder);
    return {};
}

std::vector<SnapshotStore::Entry> SnapshotStore::entriesIn(const QString& path)
{
    const QDir folder(path);
    std::vector<Entry> entries;
    for (const QString& name : folder.entryList({QStringLiteral("*.kls")}, QDir::Files)) {
        if (std::optional<Entry> entry = entryOf(folder, name))
            entries.push_back(std::move(*entry));
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.takenAtMs < b.takenAtMs; });
    return entries;
}

void SnapshotStore::prune(const QString& folder) const
{
    const QDir dir(folder);
    std::vector<Entry> entries;
    for (const QString& name : dir.entryList({QStringLiteral("*.kls")}, QDir::Files)) {
        if (std::optional<Entry> entry = entryOf(dir, name))
            entries.push_back(std::move(*entry));
    }
    if (entries.size() <= m_keep)
        return;
    // Newest first: the first `keep` stay, then the newest of each day (UTC) older than them.
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.takenAtMs > b.takenAtMs; });
    std::set<std::int64_t> daysKept;
    constexpr std::int64_t DayMs = 24 * 3600 * 1000;
    for (std::size_t i = m_keep; i < entries.size(); ++i) {
        if (!daysKept.insert(entries[i].takenAtMs / DayMs).second)
            QFile::remove(entries[i].path);
    }
}

} // namespace keylens::history
