#pragma once

#include "base/NextTurn.h"
#include "base/SlicedJob.h"
#include "base/WorkerJob.h"
#include "inspect/EndOfScanReads.h"
#include "lint/DelimiterUse.h"
#include "scan/ScanTypes.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace keylens::lint {
struct Judgement;
} // namespace keylens::lint

namespace keylens::models {

struct SessionStore;

// The end of a scan in the window, once its last key is in the store: the namespace-level rules and the library
// layouts judged on a worker (about a second per million keys, too long to stop the GUI for) while the server answers
// the big keys' lengths (inspect::judgeBesideLengths, the CLI's step too) and whatever the session runs beside them
// (the snapshot's namespaces); then their verdicts recorded in slices of the GUI thread's turns, and the lengths told
// to the linter with what could not be checked (notices()). It owns the judgement from its start to its verdicts:
// meanwhile nothing else writes findings, and a new store or lint profile abandons it (the worker waited for).
class EndOfScan : public QObject
{
    Q_OBJECT
public:
    explicit EndOfScan(SessionStore& store, QObject* parent = nullptr);
    ~EndOfScan() override;

    // The rules start on the worker, with `beside` (if any) on another core beside them. `finishing` is the scan's
    // summary (none: a store re-judged without a scan), `options` its options: they say what the server may be asked.
    void start(const scan::ScanOptions& options, const std::optional<scan::ScanSummary>& finishing,
               std::function<void(const std::atomic<bool>* cancel)> beside);
    // The worker runs, or its verdicts are being recorded.
    bool isJudging() const { return m_judging.isRunning() || m_judgement != nullptr; }
    // Waits for the worker and forgets its verdicts: the store is about to go, or to be judged with another profile.
    void abandon();
    // A new scan replaces the store: what the last one's lengths could not check is forgotten too.
    void forgetScan();

    // Once verdictsRecorded(): the big keys' lengths, as the CLI records them, told to the tree and the linter.
    void recordBigKeyLengths();
    // What the rules could not fully check, in words (as keylens-cli lint's report says it): the linter's notices
    // and the big keys whose length could not be read after the scan.
    QStringList notices() const;
    // The other delimiters the finished scan's keys use (lint::otherDelimitersUsed), counted on the worker.
    std::vector<lint::DelimiterUse> takeDelimiterUses() { return std::exchange(m_delimiterUses, {}); }

Q_SIGNALS:
    // Every verdict is in the store, in an event of its own after the last slice; isJudging() is false.
    void verdictsRecorded();

private:
    SessionStore& m_store;
    base::WorkerJob m_judging{QStringLiteral("keylens namespace rules"), this};
    std::unique_ptr<lint::Judgement> m_judgement;
    inspect::BigKeyLengths m_bigKeyLengths;          // written by the worker until it finishes
    std::vector<lint::DelimiterUse> m_delimiterUses; // the same
    QString m_lengthsNotice;                         // what of the lengths could not be checked, once recorded
    // Verdicts recorded per look at the clock: each adds to its ancestors' counts, a few hundred nanoseconds.
    base::SlicedJob m_verdictSlices{256, QStringLiteral("verdicts"), this};
    base::NextTurn m_finalPublish{QStringLiteral("final publish"), this}; // cancelled with the judgement
};

} // namespace keylens::models
