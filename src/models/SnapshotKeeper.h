#pragma once

#include "base/WorkerJob.h"
#include "history/Snapshot.h"
#include "scan/ScanTypes.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>

namespace keylens::models {

struct SessionStore;

// The history's part of a ScanSession: each scan that read keys is kept as a snapshot (history::Snapshot: what it
// measured per namespace and pattern, no key names), complete or partial, and handed to the writer when a folder is
// set. It owns the whole taking, in three stages: the namespaces measured on the end of the scan's worker beside the
// rules (measureBeside()), the findings per rule added once their verdicts are in (keep()), then the patterns and
// library labels listed on a worker of its own, so that neither the scan's end nor the GUI thread waits for them.
// That worker reads the store: whatever is about to write it first calls settle(), and the snapshot is kept without
// its patterns. One snapshot a scan: a new lint profile judging the same scan again takes none.
class SnapshotKeeper : public QObject
{
    Q_OBJECT
public:
    explicit SnapshotKeeper(const SessionStore& store, QObject* parent = nullptr);
    ~SnapshotKeeper() override;

    // Where each scan's snapshot is saved (history::SnapshotStore's root) and how many are kept there; empty, the
    // default: none is saved. The last one taken, complete or not, is lastSnapshot() either way.
    void setFolder(const QString& root, std::size_t keep) { m_root = root, m_kept = keep; }
    const QString& folder() const { return m_root; }
    // The last scan's snapshot once it is complete (its patterns are added after the scan ends); none before.
    const std::shared_ptr<const history::Snapshot>& lastSnapshot() const { return m_last; }

    // A scan starts: its snapshot is due.
    void scanStarted() { m_due = true; }
    // What the end of the scan runs beside the rules, on their worker: the namespaces of the store measured into the
    // pending snapshot, stopped once `cancel` is set. Empty when no snapshot is due or the scan read no key (one
    // refused at once). Call it when the rules start: it forgets what an abandoned judgement measured.
    std::function<void(const std::atomic<bool>* cancel)>
    measureBeside(const std::optional<scan::ScanSummary>& finishing);
    // The rules' verdicts are in the store: the measured snapshot takes the profile's name and the findings per rule,
    // then its patterns are listed on the worker; snapshotKept() once they are (or once settle() stops them).
    void keep(const QByteArray& profile);
    // The patterns' worker reads the store.
    bool isListingPatterns() const { return m_patterns.isRunning(); }
    // Before the store is written: the patterns' worker stops (waited for), and the snapshot is kept without them.
    void settle();
    // The store goes with the session: the patterns' worker stops (waited for), and nothing is kept.
    void abandon() { m_patterns.cancel(); }

Q_SIGNALS:
    // The scan's snapshot was taken (lastSnapshot()) and handed to the writer: a history should look again.
    void snapshotKept();
    // The patterns' worker is done or stopped: what waited for the store to be free of it may go in.
    void settled();

private:
    void save(); // the pending snapshot kept, and handed to the writer

    const SessionStore& m_store;
    bool m_due = false;                           // this scan's snapshot is not kept yet
    std::optional<history::Snapshot> m_measured;  // written by measureBeside()'s task until the rules' worker ends
    std::shared_ptr<history::Snapshot> m_pending; // while its patterns are listed
    base::WorkerJob m_patterns{QStringLiteral("keylens snapshot patterns"), this};
    std::shared_ptr<const history::Snapshot> m_last;
    QString m_root;
    std::size_t m_kept = 100;
};

} // namespace keylens::models
