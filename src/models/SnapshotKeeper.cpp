#include "models/SnapshotKeeper.h"

#include "base/QueueThread.h"
#include "history/SnapshotOfScan.h"
#include "history/SnapshotStore.h"
#include "lint/Linter.h"
#include "models/SessionStore.h"

#include <QDateTime>

namespace keylens::models {

SnapshotKeeper::SnapshotKeeper(const SessionStore& store, QObject* parent)
    : QObject(parent)
    , m_store(store)
{}

SnapshotKeeper::~SnapshotKeeper()
{
    abandon(); // it reads the store
}

std::function<void(const std::atomic<bool>* cancel)>
SnapshotKeeper::measureBeside(const std::optional<scan::ScanSummary>& finishing)
{
    m_measured.reset();
    // A scan that read keys is kept as a snapshot (history::), complete or partial; one refused at once has none.
    // Once a scan: a new lint profile judges the same scan again, and that is no new snapshot.
    if (!m_due || !finishing || finishing->scanCalls == 0)
        return {};
    // The snapshot walks the namespaces: beside the rules, on another core, stopped with them.
    return
        [snapshot = &m_measured, store = m_store.keys.get(), measured = *finishing](const std::atomic<bool>* cancel) {
            *snapshot = history::snapshotOfStore(*store, measured, QDateTime::currentMSecsSinceEpoch(), cancel);
        };
}

void SnapshotKeeper::keep(const QByteArray& profile)
{
    if (!m_measured)
        return;
    m_due = false;
    auto snapshot = std::make_shared<history::Snapshot>(std::move(*std::exchange(m_measured, std::nullopt)));
    snapshot->profile = profile;
    for (const lint::RuleSummary& summary : m_store.linter->summaries()) {
        if (summary.findings > 0)
            snapshot->findingsByRule.push_back({QByteArray(summary.rule->id), summary.findings});
    }
    // The patterns are a pattern tree of the whole store (half a second at a million keys) and the labels a lookup of
    // every namespace listed: on a worker, after the scan has ended, so that neither its end nor the GUI thread waits.
    // An edit or a new scan first stops it (settle()); live keys and lengths wait for it.
    m_pending = snapshot;
    m_patterns.start(
        [snapshot, store = m_store.keys.get(), libraries = m_store.linter->libraries(),
         cancel = &m_patterns.cancelFlag()] {
            history::labelLibraries(*snapshot, *store, libraries);
            history::addPatterns(*snapshot, *store, cancel);
        },
        [this] {
            save();
            Q_EMIT settled();
        });
}

void SnapshotKeeper::settle()
{
    if (!m_patterns.isRunning())
        return;
    m_patterns.cancel(); // waits: it reads the store
    if (m_pending)
        m_pending->patterns.clear(); // perhaps half listed
    save();
    Q_EMIT settled();
}

void SnapshotKeeper::save()
{
    std::shared_ptr<const history::Snapshot> snapshot = std::exchange(m_pending, nullptr);
    if (!snapshot)
        return;
    if (!m_root.isEmpty()) {
        // Written on a thread of its own, in order: a few MB at most, but not in the GUI thread's time.
        // Never deleted: a snapshot may be posted while statics are destroyed at exit (see QueueThread).
        static base::QueueThread* writer = new base::QueueThread(QStringLiteral("keylens snapshots"));
        writer->post([root = m_root, keep = m_kept, snapshot] {
            if (const QString failed = history::SnapshotStore(root, keep).save(*snapshot); !failed.isEmpty())
                qWarning("keylens: %s", qPrintable(failed));
        });
    }
    m_last = std::move(snapshot);
    Q_EMIT snapshotKept();
}

} // namespace keylens::models
