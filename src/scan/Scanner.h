#pragma once

#include "base/JobRunner.h"
#include "scan/KeyBatch.h"
#include "scan/ScanTypes.h"

#include <QObject>

#include <memory>

namespace keylens::scan {

class ScanControl;
class JobSink;

// Runs scans as jobs of a base::JobRunner (a worker thread of its own, each scan with its own connection), and
// delivers their results as signals on the thread that owns the Scanner (the GUI or the CLI's main thread).
//
// Starting a new scan supersedes the running one without waiting for it: its connection's reads are cancelled
// (within 50 ms, however slow the server), and whatever it still sends is dropped before it reaches the signals
// below. A worker waits while 16 of its batches are undelivered, so a busy receiver never lets batches pile up in
// its event queue.
class Scanner : public QObject
{
    Q_OBJECT
public:
    explicit Scanner(QObject* parent = nullptr);
    ~Scanner() override; // stops a running scan; the runner joins its thread

    std::uint64_t start(const ScanOptions& options);
    void pause();
    void resume();
    // Stops the running job: its later batches are dropped, finished() still reports it (cancelled).
    void cancel();

    bool isRunning() const { return m_running; }
    std::uint64_t currentJob() const { return m_jobId; }
    // Batches the running scan handed over that were not delivered yet (at most 16).
    int undeliveredBatches() const;

Q_SIGNALS:
    void serverInfoReady(std::uint64_t jobId, const keylens::redis::ServerInfo& info);
    void batchReady(const keylens::scan::KeyBatch& batch);
    void progressChanged(const keylens::scan::ScanProgress& progress);
    void finished(const keylens::scan::ScanSummary& summary);

private:
    friend class JobSink;
    static constexpr int MaxUndeliveredBatches = 16;
    static constexpr int ScanLane = 1; // a new scan supersedes the last
    bool wantsData() const { return m_running && !m_cancelled; }

    std::uint64_t m_jobId = 0;
    bool m_running = false;
    bool m_cancelled = false;
    std::shared_ptr<ScanControl> m_control; // the current job's
    // Last, so it is destroyed (cancelling and joining its worker) before anything its jobs deliver to.
    base::JobRunner m_runner{QStringLiteral("keylens-scan")};
};

} // namespace keylens::scan
