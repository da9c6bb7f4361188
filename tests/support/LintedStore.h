#pragma once

// Keys built for a test of the linter, and a store filled with them as a scan fills it (one batch through
// scan::Ingest, the applications' one path), linted as it fills, then finished.
#include "TestKeys.h"
#include "keyspace/Keyspace.h"
#include "lint/Linter.h"
#include "lint/Profile.h"
#include "scan/Ingest.h"
#include "scan/KeyBatch.h"

#include <map>
#include <vector>

namespace keylens::test {

constexpr std::int64_t Hour = 3'600'000;
constexpr std::int64_t Now = 1'900'000'000'000;

struct Key
{
    QByteArray name;
    std::int64_t expiresAtMs = keyspace::NoExpiry;
    keyspace::KeyType type = keyspace::KeyType::String;
    std::uint64_t memory = 64;
    bool memoryMeasured = true; // false: MEMORY USAGE denied, as for a user without it
};

struct Linted
{
    keyspace::Keyspace store;
    lint::Linter linter;

    explicit Linted(const std::vector<Key>& keys, lint::Profile profile = *lint::builtInProfile("default"),
                    bool finish = true)
        : linter(std::move(profile), 0)
    {
        scan::KeyBatch batch;
        for (const Key& key : keys) {
            keyspace::KeyInfo info = measuredKey(key.type, key.memory, key.expiresAtMs);
            if (!key.memoryMeasured) {
                info.memoryMeasured = false;
                info.memoryBytes = 0;
            }
            batch.add(key.name, info);
        }
        scan::Ingest ingest(store);
        ingest.setKeyStored([this](keyspace::NodeId node, QByteArrayView key, const keyspace::KeyInfo& info) {
            linter.keyAdded(store, node, key, info);
        });
        ingest.add(batch);
        if (finish)
            linter.finish(store);
    }

    std::map<QByteArray, std::uint64_t> byRule() const
    {
        std::map<QByteArray, std::uint64_t> counts;
        for (const lint::RuleSummary& summary : linter.summaries())
            counts[summary.rule->id] = summary.findings;
        return counts;
    }
    // The summary of a rule with findings, or nothing.
    std::optional<lint::RuleSummary> summary(const char* rule) const
    {
        for (const lint::RuleSummary& summary : linter.summaries()) {
            if (summary.rule->id == QByteArrayView(rule))
                return summary;
        }
        return std::nullopt;
    }
    std::uint64_t count(const char* rule) const
    {
        const std::optional<lint::RuleSummary> found = summary(rule);
        return found ? found->findings : 0;
    }
    // The only finding of a rule: its key, severity and detail; an empty one unless there is exactly one.
    lint::Finding only(const char* rule) const
    {
        const std::optional<lint::RuleSummary> found = summary(rule);
        if (!found || found->findings != 1 || found->examples.size() != 1)
            return {};
        return found->examples.front();
    }
    bool flagged(const QByteArray& key, const char* rule) const
    {
        const keyspace::NodeId node = store.find(key);
        return node != keyspace::InvalidNode &&
               (store.findingRules(node) >> lint::ruleIndex(*lint::findRule(rule)) & 1);
    }
    // The first example's detail of a rule.
    QByteArray detailOf(const char* rule) const
    {
        const std::optional<lint::RuleSummary> found = summary(rule);
        return found && !found->examples.empty() ? found->examples.front().detail : QByteArray();
    }
};

} // namespace keylens::test
