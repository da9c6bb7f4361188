#include "scan/Scanner.h"

#include "scan/ScanControl.h"
#include "scan/ScanLoop.h"

#include <QThread>

namespace keylens::scan {

// Forwards a scan's results as the Scanner's worker signals. Used on the worker thread.
class WorkerSink final : public ScanSink
{
public:
    WorkerSink(Scanner* scanner, std::uint64_t jobId, ScanControl& control)
        : m_scanner(scanner)
        , m_jobId(jobId)
        , m_control(control)
    {}
    void serverInfo(const redis::ServerInfo& info) override
    {
        Q_EMIT m_scanner->workerServerInfo(m_jobId, info, Scanner::QPrivateSignal());
    }
    void batch(KeyBatch&& batch) override
    {
        if (!m_control.waitForRoom(Scanner::MaxUndeliveredBatches))
            return; // cancelled: nobody wants it
        m_control.batchHandedOver();
        Q_EMIT m_scanner->workerBatch(batch, Scanner::QPrivateSignal());
    }
    void progress(const ScanProgress& progress) override
    {
        Q_EMIT m_scanner->workerProgress(progress, Scanner::QPrivateSignal());
    }
    void finished(const ScanSummary& summary) { Q_EMIT m_scanner->workerFinished(summary, Scanner::QPrivateSignal()); }

private:
    Scanner* m_scanner;
    std::uint64_t m_jobId;
    ScanControl& m_control;
};

namespace {

void registerTypes()
{
    static const bool registered = [] {
        qRegisterMetaType<KeyBatch>();
        qRegisterMetaType<ScanProgress>();
        qRegisterMetaType<ScanSummary>();
        qRegisterMetaType<redis::ServerInfo>();
        return true;
    }();
    Q_UNUSED(registered);
}

} // namespace

Scanner::Scanner(QObject* parent)
    : QObject(parent)
{
    registerTypes();
    connect(
        this, &Scanner::workerServerInfo, this,
        [this](std::uint64_t jobId, const redis::ServerInfo& info) {
            if (wantsData(jobId))
                Q_EMIT serverInfoReady(jobId, info);
        },
        Qt::QueuedConnection);
    connect(
        this, &Scanner::workerBatch, this,
        [this](const KeyBatch& batch) {
            if (batch.jobId != m_jobId)
                return; // a superseded job's: its worker no longer waits for room
            if (wantsData(batch.jobId))
                Q_EMIT batchReady(batch); // receivers here run now, so the batch is consumed when this returns
            m_control->batchDelivered();
        },
        Qt::QueuedConnection);
    connect(
        this, &Scanner::workerProgress, this,
        [this](const ScanProgress& progress) {
            if (wantsData(progress.jobId))
                Q_EMIT progressChanged(progress);
        },
        Qt::QueuedConnection);
    connect(
        this, &Scanner::workerFinished, this,
        [this](const ScanSummary& summary) {
            if (!m_running || summary.jobId != m_jobId)
                return;
            m_running = false;
            Q_EMIT finished(summary);
        },
        Qt::QueuedConnection);
}

Scanner::~Scanner()
{
    // Workers emit through this object: all of them must be gone before it is.
    if (m_control)
        m_control->cancel();
    for (QThread* worker : m_workers) {
        worker->wait();
        delete worker;
    }
}

std::uint64_t Scanner::start(const ScanOptions& options)
{
    if (m_control)
        m_control->cancel();
    deleteFinishedWorkers();
    const std::uint64_t jobId = ++m_jobId;
    m_running = true;
    m_cancelled = false;
    m_control = std::make_shared<ScanControl>();
    auto control = m_control;
    QThread* worker = QThread::create([this, jobId, options, control] {
        WorkerSink sink(this, jobId, *control);
        sink.finished(runScan(jobId, options, *control, sink));
    });
    worker->setObjectName(QStringLiteral("keylens-scan-%1").arg(jobId));
    worker->start();
    m_workers.push_back(worker);
    return jobId;
}

void Scanner::pause()
{
    if (m_control)
        m_control->pause();
}

void Scanner::resume()
{
    if (m_control)
        m_control->resume();
}

void Scanner::cancel()
{
    if (m_control)
        m_control->cancel();
    m_cancelled = true; // batches still queued from this job are dropped from here on
}

void Scanner::deleteFinishedWorkers()
{
    std::erase_if(m_workers, [](QThread* worker) {
        if (!worker->isFinished())
            return false;
        worker->wait();
        delete worker;
        return true;
    });
}

} // namespace keylens::scan
