#pragma once

#include "scan/KeyBatch.h"
#include "scan/ScanTypes.h"

#include <QObject>

#include <memory>
#include <vector>

class QThread;

namespace keylens::scan {

class ScanControl;
class WorkerSink;

// Runs scans on a worker thread of its own, with its own connection, and delivers their results as
// queued signals to the thread that owns the Scanner (the GUI or the CLI's main thread).
//
// Every scan is a job with an id. Starting a new scan cancels the running one without waiting for it
// (a worker blocked in a slow read must not block this thread), and results of a cancelled or superseded
// job are dropped before they reach the signals below. A worker waits while 16 of its batches are
// undelivered, so a busy receiver never lets batches pile up in its event queue.
class Scanner : public QObject
{
    Q_OBJECT
public:
    explicit Scanner(QObject* parent = nullptr);
    ~Scanner() override; // cancels a running scan and waits for every worker thread

    std::uint64_t start(const ScanOptions& options);
    void pause();
    void resume();
    // Stops the running job: its later batches are dropped, finished() still reports it (cancelled).
    void cancel();

    bool isRunning() const { return m_running; }
    std::uint64_t currentJob() const { return m_jobId; }

Q_SIGNALS:
    void serverInfoReady(std::uint64_t jobId, const keylens::redis::ServerInfo& info);
    void batchReady(const keylens::scan::KeyBatch& batch);
    void progressChanged(const keylens::scan::ScanProgress& progress);
    void finished(const keylens::scan::ScanSummary& summary);

    // Emitted from the worker thread; connected (queued) to the filters below.
    void workerServerInfo(std::uint64_t jobId, const keylens::redis::ServerInfo& info, QPrivateSignal);
    void workerBatch(const keylens::scan::KeyBatch& batch, QPrivateSignal);
    void workerProgress(const keylens::scan::ScanProgress& progress, QPrivateSignal);
    void workerFinished(const keylens::scan::ScanSummary& summary, QPrivateSignal);

private:
    friend class WorkerSink;
    static constexpr int MaxUndeliveredBatches = 16;
    void deleteFinishedWorkers();
    bool wantsData(std::uint64_t jobId) const { return m_running && !m_cancelled && jobId == m_jobId; }

    std::uint64_t m_jobId = 0;
    bool m_running = false;
    bool m_cancelled = false;
    std::shared_ptr<ScanControl> m_control; // the current job's
    std::vector<QThread*> m_workers;        // the current job's and superseded ones still finishing
};

} // namespace keylens::scan
