#include "models/RowPresenter.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/LibraryLayouts.h"
#include "lint/OverlayRules.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "models/FindingsText.h"

#include <QCoreApplication>
#include <QFont>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace keylens::models {

using keyspace::KeyType;

namespace {

constexpr std::int64_t Never = std::numeric_limits<std::int64_t>::max();

QString formatted(const QByteArray& utf8)
{
    return displayText(utf8);
}

} // namespace

KeyType dominantType(const keyspace::SubtreeTotals& totals)
{
    const auto top = std::max_element(totals.types.begin(), totals.types.end());
    return KeyType(top - totals.types.begin());
}

QString typeMix(const keyspace::SubtreeTotals& totals)
{
    std::vector<std::pair<std::uint64_t, int>> present;
    for (int i = 0; i < keyspace::KeyTypeCount; ++i) {
        if (totals.types[std::size_t(i)] > 0)
            present.emplace_back(totals.types[std::size_t(i)], i);
    }
    std::sort(present.begin(), present.end(), std::greater<>());
    if (present.size() == 1)
        return formatted(keyspace::keyTypeName(KeyType(present[0].second)).toByteArray());
    // Whole percents: the column is narrow, and "hash 71% · set 14%" reads at a glance.
    QStringList parts;
    for (std::size_t i = 0; i < present.size() && i < 3; ++i) {
        const double share = 100.0 * double(present[i].first) / double(totals.keys);
        // Never "100%" beside another type, nor "0%": the extremes say which side of them the share is.
        const QString percent = share < 1.0    ? QStringLiteral("<1%")
                                : share > 99.0 ? QStringLiteral(">99%")
                                               : QString::number(qRound(share)) + u'%';
        parts << formatted(keyspace::keyTypeName(KeyType(present[i].second)).toByteArray()) + u' ' + percent;
    }
    if (present.size() > 3)
        parts << QStringLiteral("…");
    return parts.join(QStringLiteral(" · "));
}

FactsWanted factsWanted(int role, int column)
{
    FactsWanted wanted;
    switch (role) {
    case Qt::ToolTipRole:
        return {true, true, true};
    case Qt::DisplayRole:
        wanted.memoryFraction = column == TreeColumns::ShareColumn;
        wanted.overlays = column == TreeColumns::TypeColumn; // "deleted"
        return wanted;
    case TreeColumns::MemoryFractionRole:
        wanted.memoryFraction = true;
        return wanted;
    case TreeColumns::OverlayRole:
        wanted.overlays = true;
        return wanted;
    }
    return wanted; // the sort value reads the totals and the name only
}

int totalsOverlays(const keyspace::SubtreeTotals& totals, std::int64_t now)
{
    int overlays = 0;
    if (totals.keysMemoryUnmeasured > 0)
        overlays |= TreeColumns::MemoryUnmeasured;
    if (totals.keysWithTtl > 0 && totals.soonestExpiryMs != Never && totals.soonestExpiryMs > now &&
        totals.soonestExpiryMs - now <= 60'000)
        overlays |= TreeColumns::ExpiringSoon;
    return overlays;
}

// A key's idle time ("idle 3d 4h", as of now: nothing the scan saw has read it since), a namespace's cold memory and
// its share ("12 MiB · 40%"); "not measured" where no idle time was.
QString coldCell(const RowFacts& row, std::int64_t now)
{
    const keyspace::SubtreeTotals& totals = row.totals;
    if (row.isLeafKey) {
        if (row.access.hasFrequency())
            return QCoreApplication::translate("RowPresenter", "LFU %1").arg(row.access.frequencyCounter());
        if (!row.access.hasIdleTime())
            return QCoreApplication::translate("RowPresenter", "not measured");
        return QCoreApplication::translate("RowPresenter", "idle %1")
            .arg(formatted(keyspace::formatDuration(std::int64_t(row.access.idleSecondsAt(now / 1000)) * 1000)));
    }
    if (totals.keys == 0)
        return QString();
    if (!totals.idleMeasured())
        return QCoreApplication::translate("RowPresenter", "not measured");
    if (totals.keysCold == 0)
        return QStringLiteral("–");
    const std::optional<double> share = totals.coldShare();
    if (!share) // memory not measured: the cold keys alone
        return QCoreApplication::translate("RowPresenter", "%1 keys")
            .arg(formatted(keyspace::formatCount(totals.keysCold)));
    return QString(formatted(keyspace::formatBytes(totals.coldMemoryBytes)) + QStringLiteral(" · ") +
                   formatted(keyspace::formatPercent(*share)));
}

QVariant rowDisplay(const RowFacts& row, int column, std::int64_t now)
{
    const keyspace::SubtreeTotals& totals = row.totals;
    switch (column) {
    case TreeColumns::NameColumn:
        return row.name.isEmpty() ? QStringLiteral("\"\"") : formatted(keyspace::displayBytes(row.name));
    case TreeColumns::KeysColumn:
        // A namespace whose keys were all deleted here (a bulk delete) says so, not "3 of 0".
        if (!row.isKey && totals.keys == 0)
            return QCoreApplication::translate("RowPresenter", "deleted");
        if (row.matchingKeys >= 0 && std::uint64_t(row.matchingKeys) != totals.keys)
            return QCoreApplication::translate("RowPresenter", "%1 of %2")
                .arg(formatted(keyspace::formatCount(std::min(std::uint64_t(row.matchingKeys), totals.keys))),
                     formatted(keyspace::formatCount(totals.keys)));
        // A key and a namespace: the row's own key, and those below it ("1 key + 3 below" in its tooltip).
        if (row.isKey && !row.isLeafKey && totals.keys > 1)
            return QStringLiteral("1 + %1").arg(formatted(keyspace::formatCount(totals.keys - 1)));
        return formatted(keyspace::formatCount(totals.keys));
    case TreeColumns::MemoryColumn: {
        // Under a filter, the matching keys' memory, as the Keys cell counts them ("11 of 200").
        const bool filtered = row.matchingKeys >= 0 && std::uint64_t(row.matchingKeys) != totals.keys;
        const keyspace::MemoryFigure figure = filtered ? row.matchingMemory : keyspace::memoryFigureOf(totals);
        if (!figure.known())
            return QStringLiteral("–");
        // Some keys not measured: the sum is a lower bound, and says so.
        return formatted(keyspace::formatMemory(figure));
    }
    case TreeColumns::ShareColumn:
        return formatted(keyspace::formatPercent(row.memoryFraction));
    case TreeColumns::TtlColumn: {
        if (row.isLeafKey)
            return formatted(keyspace::formatTimeLeft(row.expiresAtMs, now));
        const std::optional<double> share = totals.ttlShare();
        if (!share)
            return QCoreApplication::translate("RowPresenter", "not measured");
        if (totals.keysWithTtl == 0)
            return QStringLiteral("–");
        if (totals.allExpired(now)) // plainly: these keys are gone from the server, whatever the counts say
            return QCoreApplication::translate("RowPresenter", "all expired");
        const std::int64_t left = totals.soonestExpiryMs - now;
        // Past the soonest expiry the next one is not known: say that some expired instead.
        const QString remaining = left <= 0 ? QCoreApplication::translate("RowPresenter", "some expired")
                                            : formatted(keyspace::formatDuration(left));
        return QString(formatted(keyspace::formatPercent(*share)) + QStringLiteral(" · ") + remaining);
    }
    case TreeColumns::FindingsColumn:
        return findingsCell(totals.findings);
    case TreeColumns::ColdColumn:
        return coldCell(row, now);
    case TreeColumns::WritesColumn:
        // Blank when nothing was written: the written namespaces stand out.
        if (row.writesPerSecond < 0 || row.writesLastMinute == 0)
            return QString();
        return row.writesPerSecond < 10 ? QString::number(row.writesPerSecond, 'f', 1)
                                        : QLocale().toString(qlonglong(std::llround(row.writesPerSecond)));
    case TreeColumns::TypeColumn:
        if (row.overlays & TreeColumns::Deleted)
            return QStringLiteral("deleted");
        if (row.overlays & TreeColumns::Vanished)
            return QCoreApplication::translate("RowPresenter", "gone");
        if (totals.keys == 0)
            return QString();
        return typeMix(totals);
    }
    return {};
}

QVariant rowSortValue(const RowFacts& row, int column)
{
    const keyspace::SubtreeTotals& totals = row.totals;
    switch (column) {
    case TreeColumns::NameColumn:
        return row.name.toByteArray();
    case TreeColumns::KeysColumn:
        return qulonglong(totals.keys);
    case TreeColumns::MemoryColumn:
    case TreeColumns::ShareColumn:
        return qulonglong(totals.memoryBytes);
    case TreeColumns::TtlColumn:
        return qlonglong(totals.soonestExpiryMs);
    case TreeColumns::FindingsColumn:
        return qulonglong(findingsSortKey(totals.findings));
    case TreeColumns::TypeColumn:
        return int(dominantType(totals));
    case TreeColumns::ColdColumn:
        return qulonglong(totals.coldMemoryBytes);
    case TreeColumns::WritesColumn:
        return qulonglong(row.writesLastMinute);
    }
    return {};
}

QString coldToolTip(const keyspace::SubtreeTotals& totals)
{
    if (!totals.idleMeasured())
        return QCoreApplication::translate(
            "RowPresenter", "Idle times not measured (OBJECT IDLETIME denied, turned off, or an LFU policy)");
    QString text =
        QCoreApplication::translate("RowPresenter", "%1 of %2 keys idle past the cold threshold, with %3")
            .arg(formatted(keyspace::formatCount(totals.keysCold)), formatted(keyspace::formatCount(totals.keys)),
                 formatted(keyspace::formatBytes(totals.coldMemoryBytes)));
    if (totals.keysIdleUnknown > 0)
        text += u'\n' + QCoreApplication::translate("RowPresenter", "Idle time not measured for %1 keys")
                            .arg(formatted(keyspace::formatCount(totals.keysIdleUnknown)));
    return text;
}

QString keyAndBelowText(std::uint64_t keysInSubtree)
{
    return QCoreApplication::translate("RowPresenter", "1 key + %1 below")
        .arg(formatted(keyspace::formatCount(keysInSubtree > 0 ? keysInSubtree - 1 : 0)));
}

QString rowToolTip(const RowFacts& row, int column, std::int64_t now)
{
    const keyspace::SubtreeTotals& totals = row.totals;
    const int overlays = row.overlays;
    QStringList lines;
    if (column == TreeColumns::NameColumn) {
        lines << formatted(keyspace::displayBytes(row.path));
        if (row.members > 1) {
            QStringList examples;
            for (const QByteArray& example : row.examples)
                examples << formatted(keyspace::displayBytes(example));
            lines << QCoreApplication::translate("RowPresenter", "%1 members, such as %2")
                         .arg(formatted(keyspace::formatCount(row.members)), examples.join(QStringLiteral(", ")));
        }
        if (row.isKey && !row.isLeafKey)
            lines << QCoreApplication::translate(
                         "RowPresenter", "A key and a namespace at once: %1. The details pane has a tab for each.")
                         .arg(keyAndBelowText(totals.keys));
        if (row.library)
            lines << QCoreApplication::translate("RowPresenter", "Written by %1 (%2): %3")
                         .arg(QString::fromUtf8(row.library->name),
                              QString::fromUtf8(lint::roleName(row.library->role)),
                              QString::fromUtf8(row.library->layout));
    }
    // Under a filter the Keys and Memory cells count the matching keys: said whole here, where a narrow column elides.
    if (row.matchingKeys >= 0 && (column == TreeColumns::KeysColumn || column == TreeColumns::MemoryColumn))
        lines << QCoreApplication::translate("RowPresenter", "%1 of %2 keys match the filter, with %3 of memory")
                     .arg(formatted(keyspace::formatCount(std::min(std::uint64_t(row.matchingKeys), totals.keys))),
                          formatted(keyspace::formatCount(totals.keys)),
                          formatted(keyspace::formatMemory(row.matchingMemory)));
    if (column == TreeColumns::MemoryColumn || column == TreeColumns::ShareColumn ||
        column == TreeColumns::NameColumn) {
        lines << QCoreApplication::translate("RowPresenter", "%1 in %2 keys, %3 of the parent's memory")
                     .arg(formatted(keyspace::formatBytes(totals.memoryBytes)),
                          formatted(keyspace::formatCount(totals.keys)),
                          formatted(keyspace::formatPercent(row.memoryFraction)));
        if (overlays & TreeColumns::MemoryUnmeasured)
            lines << QCoreApplication::translate("RowPresenter",
                                                 "Memory not measured for %1 keys (MEMORY USAGE denied or skipped)")
                         .arg(formatted(keyspace::formatCount(totals.keysMemoryUnmeasured)));
        if (totals.preallocatedBytes > 0)
            lines << memoryRangeNote(totals.memoryBytes, totals.preallocatedBytes);
    }
    if (overlays & TreeColumns::BigKey) {
        const lint::OverlayText big = lint::bigKeyText();
        lines << big.title + QStringLiteral(": ") + big.explanation;
    }
    if (column == TreeColumns::TtlColumn || column == TreeColumns::NameColumn) {
        if (totals.keysTtlUnknown > 0)
            lines << QCoreApplication::translate("RowPresenter", "TTL not measured for %1 keys (PTTL denied)")
                         .arg(formatted(keyspace::formatCount(totals.keysTtlUnknown)));
        if (totals.keysWithTtl > 0)
            lines << QCoreApplication::translate("RowPresenter", "%1 of %2 keys have a TTL; the soonest expires in %3")
                         .arg(formatted(keyspace::formatCount(totals.keysWithTtl)),
                              formatted(keyspace::formatCount(totals.keys)),
                              formatted(
                                  keyspace::formatDuration(std::max<std::int64_t>(0, totals.soonestExpiryMs - now))));
        if (overlays & TreeColumns::NoTtlAmongExpiring) {
            const lint::OverlayText missing = lint::missingTtlText();
            lines << missing.title + QStringLiteral(": ") + missing.explanation;
        }
        if (overlays & TreeColumns::ExpiringSoon)
            lines << QCoreApplication::translate("RowPresenter", "Expires within a minute.");
        if (overlays & TreeColumns::Expired)
            lines << QCoreApplication::translate("RowPresenter",
                                                 "Its TTL ran out after the scan saw it; the key is gone.");
    }
    if (column == TreeColumns::FindingsColumn || column == TreeColumns::NameColumn) {
        if (totals.findingCount() > 0)
            lines << findingsSummary(totals.findings);
        if (!row.keyFindings.isEmpty())
            lines << row.keyFindings;
    }
    if (column == TreeColumns::TypeColumn && totals.keys > 0)
        lines << typeMix(totals);
    if (column == TreeColumns::ColdColumn && totals.keys > 0)
        lines << coldToolTip(totals);
    if (column == TreeColumns::KeysColumn && row.isKey && !row.isLeafKey)
        lines << keyAndBelowText(totals.keys);
    if (overlays & TreeColumns::Deleted)
        lines << QCoreApplication::translate("RowPresenter",
                                             "Deleted from this window; rescan (F5) to refresh the totals.");
    if (overlays & TreeColumns::Vanished)
        lines << QCoreApplication::translate("RowPresenter",
                                             "Gone since the scan compared with: its keys and memory are that scan's.");
    return lines.join(u'\n');
}

QVariant rowAlignment(int column)
{
    if (column == TreeColumns::NameColumn || column == TreeColumns::TypeColumn)
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
}

QVariant goneRowData(int role, const QByteArray& path)
{
    switch (role) {
    case Qt::FontRole: {
        QFont font;
        font.setStrikeOut(true);
        return font;
    }
    case TreeColumns::NodeRole:
        return qulonglong(keyspace::InvalidNode);
    case TreeColumns::PathRole:
        return path;
    case TreeColumns::IsKeyRole:
        return false;
    case TreeColumns::VanishedRole:
        return true;
    case TreeColumns::OverlayRole:
        return int(TreeColumns::Vanished);
    case TreeColumns::WorstFindingRole:
        return -1;
    }
    return {};
}

RowFacts goneRowFacts(const QByteArray& name, const QByteArray& path, const history::SnapshotStats& before)
{
    RowFacts facts;
    facts.name = name;
    facts.path = path;
    facts.totals.keys = before.keys;
    facts.totals.memoryBytes = before.memoryBytes;
    facts.totals.keysMemoryUnmeasured = before.keysMemoryUnmeasured;
    facts.overlays = TreeColumns::Vanished;
    return facts;
}

QVariant treeHeaderData(int section, Qt::Orientation orientation, int role)
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case TreeColumns::NameColumn:
            return QCoreApplication::translate("RowPresenter", "Name");
        case TreeColumns::KeysColumn:
            return QCoreApplication::translate("RowPresenter", "Keys");
        case TreeColumns::MemoryColumn:
            return QCoreApplication::translate("RowPresenter", "Memory");
        case TreeColumns::ShareColumn:
            return QCoreApplication::translate("RowPresenter", "% of parent");
        case TreeColumns::TtlColumn:
            return QStringLiteral("TTL");
        case TreeColumns::FindingsColumn:
            return QCoreApplication::translate("RowPresenter", "Findings");
        case TreeColumns::TypeColumn:
            return QCoreApplication::translate("RowPresenter", "Type");
        case TreeColumns::ColdColumn:
            return QCoreApplication::translate("RowPresenter", "Cold");
        case TreeColumns::WritesColumn:
            return QCoreApplication::translate("RowPresenter", "Writes/s");
        case TreeColumns::DeltaKeysColumn:
            return QCoreApplication::translate("RowPresenter", "Δ Keys");
        case TreeColumns::DeltaMemoryColumn:
            return QCoreApplication::translate("RowPresenter", "Δ Memory");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TreeColumns::KeysColumn:
            return QCoreApplication::translate("RowPresenter", "Keys in this subtree");
        case TreeColumns::MemoryColumn:
            return QCoreApplication::translate(
                "RowPresenter", "MEMORY USAGE summed over the subtree; the bar is the share of the parent");
        case TreeColumns::ShareColumn:
            return QCoreApplication::translate(
                "RowPresenter", "Share of the parent's memory (of its keys when memory was not measured)");
        case TreeColumns::TtlColumn:
            return QCoreApplication::translate(
                "RowPresenter", "For a namespace: share of keys with a TTL and the soonest expiry. For a key: time "
                                "left.");
        case TreeColumns::FindingsColumn:
            return QCoreApplication::translate(
                "RowPresenter", "Naming-convention findings in this subtree, coloured by the worst (View > "
                                "Findings lists them by rule)");
        case TreeColumns::TypeColumn:
            return QCoreApplication::translate("RowPresenter",
                                               "For a key: its type. For a namespace: its mix of types");
        case TreeColumns::ColdColumn:
            return QCoreApplication::translate(
                "RowPresenter", "Memory of keys nothing has read or written for longer than the cold threshold "
                                "(OBJECT IDLETIME; Scan > Cold after…), and its share. For a key: its idle time.");
        case TreeColumns::WritesColumn:
            return QCoreApplication::translate(
                "RowPresenter", "While the tree follows the server (Scan > Follow live changes): writes and deletes "
                                "per second over the last minute, from the server's key events, and a line of the "
                                "last five minutes. Expiries and evictions are the server's and not counted.");
        case TreeColumns::DeltaKeysColumn:
        case TreeColumns::DeltaMemoryColumn:
            return QCoreApplication::translate(
                "RowPresenter", "The change since the scan compared with (Scan > Compare with…): red grew, green "
                                "shrank; struck-out rows are gone");
        }
    }
    if (role == Qt::InitialSortOrderRole) {
        // Cost columns start with the biggest: one click on Memory shows where it goes.
        const bool cost = section == TreeColumns::KeysColumn || section == TreeColumns::MemoryColumn ||
                          section == TreeColumns::ShareColumn || section == TreeColumns::FindingsColumn ||
                          section == TreeColumns::ColdColumn || section == TreeColumns::WritesColumn ||
                          TreeColumns::isDeltaColumn(section);
        return QVariant::fromValue(cost ? Qt::DescendingOrder : Qt::AscendingOrder);
    }
    if (role == Qt::TextAlignmentRole && section != TreeColumns::NameColumn && section != TreeColumns::TypeColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace keylens::models
