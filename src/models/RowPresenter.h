#pragma once

#include "history/Snapshot.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/Units.h"

#include <QByteArray>
#include <QString>
#include <QVariant>

#include <cstdint>

namespace keylens::lint {
struct LibraryInfo;
}

namespace keylens::models {

// The columns, roles and overlay flags that every key tree shows: the raw tree (KeyTreeModel) and the
// pattern tree (PatternTreeModel) have the same columns, so one delegate, one legend and one header
// serve both.
struct TreeColumns
{
    enum Column {
        NameColumn,
        KeysColumn,
        MemoryColumn,
        ShareColumn,
        TtlColumn,
        FindingsColumn,
        TypeColumn,
        ColdColumn, // memory of keys idle past the cold threshold (OBJECT IDLETIME); a key: its idle time
        // Writes per second over the last minute, while the tree follows the server (LiveSession); shown only then.
        WritesColumn,
        // Against an earlier scan (Comparison.h): shown only while the window compares.
        DeltaKeysColumn,
        DeltaMemoryColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // the raw number (or name) the column sorts by
        NodeRole,                    // NodeId in the store (a pattern row: its first member's)
        KeyBytesRole,                // the exact key bytes (QByteArray) of a key node; empty for a namespace
        PathRole,                    // the node's path bytes (QByteArray); a pattern row: the pattern
        IsKeyRole,
        MemoryFractionRole, // double 0..1: this row's memory relative to its parent's (the inline bar)
        OverlayRole,        // Overlay flags
        WorstFindingRole,   // int: the worst lint::Severity among the row's findings, -1 without any
        LibraryRole,        // QString: the id of the library whose layout the row is (lint::LibraryInfo), or empty
        MemoryOfTotalRole,  // double 0..1: this row's memory relative to the whole keyspace's (the bar's colour)
        DeltaSignRole,      // int, in the Δ columns: +1 grew (or new), -1 shrank (or gone), 0 otherwise
        VanishedRole,       // bool: a row the earlier scan had that this one has not (struck out)
        ColdShareRole,      // double 0..1: the share of the row's memory that is cold; invalid when not measured
        WriteHistoryRole,   // QList<float>: writes/s in each 10 s of the last five minutes, oldest first (sparkline)
    };
    enum Overlay {
        BigKey = 1,             // lint::isBigString / isBigCollection
        NoTtlAmongExpiring = 2, // lint::lacksTtlAmongExpiring / hasKeysLackingTtlAmongExpiring
        ExpiringSoon = 4,       // expires (or has keys that expire) within a minute
        Expired = 8,            // its TTL ran out after the scan saw it
        MemoryUnmeasured = 16,  // MEMORY USAGE was denied or skipped for (some of) its keys
        Deleted = 32,           // deleted from this window
        KeyAndNamespace = 64,   // a key with keys below it (`config:app` and `config:app:db`)
        Vanished = 128,         // a namespace the scan compared with had, gone since (its figures are the old ones)
    };
    static bool isDeltaColumn(int column) { return column == DeltaKeysColumn || column == DeltaMemoryColumn; }
};

// What a row shows, gathered by its model: the column presenter below turns it into cells, sort values and
// tooltips, the same way for a store node and for a pattern.
struct RowFacts
{
    QByteArrayView name; // the segment, or the pattern's level
    QByteArray path;     // the whole key or pattern (tooltips only: filled for Qt::ToolTipRole)
    keyspace::SubtreeTotals totals;
    bool isKey = false;                         // a key (and maybe a namespace too)
    bool isLeafKey = false;                     // a key without children: its own TTL and type are shown
    std::int64_t expiresAtMs = 0;               // a leaf key's
    keyspace::KeyAccess access;                 // a leaf key's
    double memoryFraction = 0.0;                // FactsWanted::memoryFraction
    int overlays = 0;                           // FactsWanted::overlays
    QString keyFindings;                        // a key's rules, a line each (tooltips only)
    const lint::LibraryInfo* library = nullptr; // tooltips only
    // Under a filter, how many of the row's keys match it (the Keys cell says "3 of 18,776"); -1 without one.
    std::int64_t matchingKeys = -1;
    // And their memory (the Memory cell shows it then), unknown or a lower bound as the unfiltered figure is.
    keyspace::MemoryFigure matchingMemory;
    // A pattern row: how many store nodes it stands for, and a few of them (tooltips only).
    std::uint64_t members = 0;
    QByteArrayList examples;
    // While the tree follows the server: writes per second over the last minute, and the writes in it; -1 otherwise.
    double writesPerSecond = -1;
    std::uint64_t writesLastMinute = 0;
};

// The facts a cell needs beyond the row's totals: gathering all of them for every painted cell summed the
// parent's totals and walked the ancestors for nothing.
struct FactsWanted
{
    bool memoryFraction = false;
    bool overlays = false;
    bool toolTip = false; // path, the key's findings, library, examples
};
FactsWanted factsWanted(int role, int column);

// The overlays that follow from a subtree's totals alone (not measured, expiring soon).
int totalsOverlays(const keyspace::SubtreeTotals& totals, std::int64_t nowMs);

QVariant rowDisplay(const RowFacts& row, int column, std::int64_t nowMs);
QVariant rowSortValue(const RowFacts& row, int column);
QString rowToolTip(const RowFacts& row, int column, std::int64_t nowMs);
QVariant rowAlignment(int column);
// A row gone since the compared scan (a namespace, a pattern): struck out, no node, its old `path` (PathRole).
QVariant goneRowData(int role, const QByteArray& path);
// Its facts: its name and path, and the figures the compared scan had.
RowFacts goneRowFacts(const QByteArray& name, const QByteArray& path, const history::SnapshotStats& before);
// The headers every key tree shares: titles, tooltips, each column's first sort order.
QVariant treeHeaderData(int section, Qt::Orientation orientation, int role);

// A type mix in a few words ("hash 71% · set 14%"), and the type with the most keys.
QString typeMix(const keyspace::SubtreeTotals& totals);
// The keys of a row that is a key and a namespace at once: "1 key + 3 below".
QString keyAndBelowText(std::uint64_t keysInSubtree);
// What a row's cold memory is made of, and what was not measured.
QString coldToolTip(const keyspace::SubtreeTotals& totals);
keyspace::KeyType dominantType(const keyspace::SubtreeTotals& totals);

} // namespace keylens::models
