#pragma once

#include "keyspace/Keyspace.h"
#include "patterns/PatternTree.h"

#include <QByteArray>

#include <cstdint>
#include <vector>

namespace keylens::edit {

// The keys a bulk action works on, as the scan saw them: their bytes, types and memory, so that a preview can say
// exactly what will be touched before anything is.
struct KeySelection
{
    QByteArray description; // for messages and the typed confirmation: "cache:*", "user:<id>:profile"
    // The namespace prefix the keys share ("cache:"), which a rename replaces; empty when they share none.
    QByteArray prefix;
    std::vector<QByteArray> keys;
    std::vector<keyspace::KeyType> types;
    std::vector<keyspace::NodeId> nodes; // in the store the selection came from
    std::uint64_t memoryBytes = 0;
    std::uint64_t keysMemoryUnmeasured = 0;
    std::uint64_t keysWithTtl = 0;
    std::uint64_t keysTtlUnknown = 0; // PTTL was denied for these: neither with a TTL nor without

    std::size_t size() const { return keys.size(); }
    // How big the selection is, for a preview: "1.2 MiB", "≥ 1.2 MiB, 30 not measured" or "memory not measured";
    // then "12 with a TTL", "≥ 12 with a TTL, 40 not measured" or "TTLs not measured". Never a 0 that was not
    // measured.
    QByteArray sizeText() const;
    void add(const keyspace::Keyspace& store, keyspace::NodeId node);
    // The tree's natural order (user:2 before user:10, case aside), so a preview lists keys as the tree shows them,
    // the same from run to run.
    void sortByKey();
};

// A node and every key below it: its own key (a node can be both) and its namespace, as the tree's row totals it.
KeySelection selectSubtree(const keyspace::Keyspace& store, keyspace::NodeId node);
// The keys of a pattern: its members and their subtrees, as the pattern view's row totals them.
KeySelection selectPattern(const keyspace::Keyspace& store, const patterns::PatternTree& patterns,
                           patterns::PatternTree::PatternId pattern);
// These key nodes (a lint finding's keys), in the order given.
KeySelection selectNodes(const keyspace::Keyspace& store, const std::vector<keyspace::NodeId>& nodes,
                         QByteArray description);

// The literal start of a glob up to its last delimiter before the first wildcard: "cache:user:" for
// "cache:user:*" and for "cache:user:1*". What a rename of the glob's keys replaces.
QByteArray globPrefix(const QByteArray& glob, const keyspace::Delimiters& delimiters);
// The literal start of a pattern's text up to its first placeholder level: "user:" for "user:<id>:profile".
QByteArray patternPrefix(const patterns::PatternTree& patterns, patterns::PatternTree::PatternId pattern);

// The new names of a rename into another namespace: each key with `from` at its start replaced by `to`. A key that
// does not start with `from` keeps its name (and a rename then fails for it, saying so).
std::vector<QByteArray> renamedKeys(const std::vector<QByteArray>& keys, const QByteArray& from, const QByteArray& to);

} // namespace keylens::edit
