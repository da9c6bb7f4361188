#pragma once

#include "keyspace/AccessFigures.h"
#include "keyspace/Keyspace.h"
#include "keyspace/MemoryEstimate.h"
#include "lint/DelimiterUse.h"
#include "lint/LibraryLayouts.h"
#include "scan/ScanTypes.h"

#include <QByteArray>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace keylens::report {

// The deepest namespace level a report lists. The report's walks recurse once per level, and a JSON
// document nests two containers per level: past a few hundred levels common parsers (Python's json,
// QJsonDocument) refuse it, and no keyspace has namespaces that deep that a person would read. A key
// may still have 100,000 segments: it is then listed down to this level.
inline constexpr int MaxDepth = 256;

struct ReportOptions
{
    int depth = 2;         // namespace levels to list
    int width = 50;        // namespaces per level before the rest are summed into "others"
    int topWidth = 0;      // the same at the top level, where it differs (0: `width`)
    int top = 20;          // biggest keys to list
    bool patterns = false; // list the key patterns (PatternTree), biggest first
    // Name the libraries whose layouts the catalogue knows (lint::LibraryLayouts); off (--no-catalogue), none is.
    bool libraryCatalogue = true;

    int widthAt(int level) const { return level == 0 && topWidth > 0 ? topWidth : width; }
};

// Namespaces past --width at one level, summed.
struct Others
{
    std::uint64_t namespaces = 0;
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;
    std::uint64_t preallocatedBytes = 0; // of it, what a server that loads an RDB file's keys would not hold
    std::uint64_t keysMemoryUnmeasured = 0;
};

struct NamespaceEntry
{
    keyspace::NodeId node = keyspace::InvalidNode;
    QByteArray path; // with the trailing delimiter: what SCAN MATCH <path>* returns
    QByteArray name; // the segment
    keyspace::NamespaceStats stats;
    const lint::LibraryInfo* library = nullptr; // the library whose layout it is, if one was recognised
    std::vector<NamespaceEntry> children;       // down to ReportOptions::depth
    Others others;
    std::optional<keyspace::MemoryEstimate> estimate; // a sampled scan's (ScanSummary::sampleProbability)
    keyspace::AccessFigures access;                   // idle percentiles, when the scan measured them
};

// The keys of one pattern (`user:<int>:profile`): the patterns partition the keys.
struct PatternEntry
{
    QByteArray pattern;
    keyspace::NamespaceStats stats;   // of the pattern's own keys
    std::vector<QByteArray> examples; // the first few keys
    const lint::LibraryInfo* library = nullptr;
    keyspace::AccessFigures access;
};

// What one library's layout holds, over every place it was recognised.
struct LibraryEntry
{
    const lint::LibraryInfo* library = nullptr;
    std::uint64_t keys = 0;
    std::uint64_t memoryBytes = 0;
    std::uint64_t preallocatedBytes = 0; // as Others'
    std::uint64_t keysMemoryUnmeasured = 0;
    std::vector<QByteArray> roots; // where: namespaces with their delimiter (`bull:`), or keys; the first few
};
// In the text report, the patterns listed; the rest are summed.
inline constexpr std::size_t TextPatterns = 30;

struct TopKey
{
    QByteArray key;
    keyspace::KeyInfo info;
};

// Everything a report says, taken from the store once; the writers only format it.
struct ScanReport
{
    scan::ScanSummary summary;
    std::int64_t generatedAtMs = 0;       // TTLs are reported relative to this
    keyspace::Delimiters delimiter = ':'; // the store's
    keyspace::NamespaceStats totals;
    keyspace::AccessFigures totalAccess;
    std::optional<keyspace::MemoryEstimate> totalEstimate; // a sampled scan's
    std::uint64_t duplicates = 0;                          // keys SCAN returned more than once
    keyspace::NamespaceStats keysWithoutDelimiter;
    std::vector<NamespaceEntry> namespaces;
    Others others;
    std::vector<TopKey> topKeys;
    std::vector<PatternEntry> patterns;  // by memory, then keys; with ReportOptions::patterns only
    std::vector<LibraryEntry> libraries; // by memory
    ReportOptions options;
    // When most keys lack the delimiter but share another separator ('_', '.', '/', '-', '|'), that byte;
    // else 0. Real keyspaces often use another one (`user_123_profile`).
    char suggestedDelimiter = 0;
    // Other bytes many keys use as delimiters beside the store's (`users/104/avatar`), most used first: worth
    // splitting on too (`--delimiter ':/'`).
    std::vector<lint::DelimiterUse> otherDelimiters;

    // Time left until an absolute expiry, as of generatedAtMs; 0 when it has passed.
    std::int64_t remainingMs(std::int64_t expiresAtMs) const
    {
        return std::max<std::int64_t>(0, expiresAtMs - generatedAtMs);
    }
};

// A namespace's child namespaces, biggest first (memory, then keys, then name: the same order on every run), at most
// `count` of them; those past it are summed into `others`. The report's levels and a snapshot's are listed so.
// `byEstimate`: ranked by estimated memory (keyspace::estimatedMemory), for a sampled scan.
std::vector<keyspace::NodeId> biggestChildNamespaces(const keyspace::Keyspace& keyspace, keyspace::NodeId parent,
                                                     std::size_t count, Others* others, bool byEstimate = false);

// Every pattern that holds keys (patterns::PatternTree), with its own keys' totals, biggest first: the list
// partitions the keyspace. `libraries` labels them when given. A set `cancel` stops it (the list is then empty).
// With `accessAtMs`, each gets its idle percentiles as of that time.
std::vector<PatternEntry> listPatterns(const keyspace::Keyspace& keyspace, const lint::LibraryLayouts* libraries,
                                       const std::atomic<bool>* cancel = nullptr,
                                       std::optional<std::int64_t> accessAtMs = std::nullopt);

// The libraries whose layouts were recognised, with their keys and memory (a nested one's counted once), biggest first.
std::vector<LibraryEntry> listLibraries(const keyspace::Keyspace& keyspace, const lint::LibraryLayouts& libraries);

// `librarySets`: see lint::LibraryLayouts::recognise.
ScanReport buildReport(const keyspace::Keyspace& keyspace, const scan::ScanSummary& summary, std::uint64_t duplicates,
                       const ReportOptions& options, std::int64_t nowMs, const lint::SetMembers& librarySets = {});

} // namespace keylens::report
