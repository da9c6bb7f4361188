#include "scan/Scanner.h"

#include "base/ThreadPriority.h"
#include "scan/RdbFileScan.h"
#include "scan/ScanControl.h"
#include "scan/ScanLoop.h"

namespace keylens::scan {

// Sends a scan's results to the Scanner's thread, from the worker. What a superseded job sends is dropped by the
// runner; what a cancelled one sends, by wantsData().
class JobSink final : public ScanSink
{
public:
    JobSink(Scanner* scanner, const base::JobContext& job, std::shared_ptr<ScanControl> control)
        : m_scanner(scanner)
        , m_job(job)
        , m_control(std::move(control))
    {}
    void serverInfo(const redis::ServerInfo& info) override
    {
        m_job.send([scanner = m_scanner, id = m_job.id, info] {
            if (scanner->wantsData())
                Q_EMIT scanner->serverInfoReady(id, info);
        });
    }
    void batch(KeyBatch&& batch) override
    {
        if (!m_control->waitForRoom(Scanner::MaxUndeliveredBatches))
            return; // cancelled: nobody wants it
        m_control->batchHandedOver();
        m_job.send([scanner = m_scanner, control = m_control, batch = std::move(batch)] {
            if (scanner->wantsData())
                Q_EMIT scanner->batchReady(batch); // receivers here run now, so the batch is consumed when this returns
            control->batchDelivered();
        });
    }
    void progress(const ScanProgress& progress) override
    {
        m_job.send([scanner = m_scanner, progress] {
            if (scanner->wantsData())
                Q_EMIT scanner->progressChanged(progress);
        });
    }

private:
    Scanner* m_scanner;
    const base::JobContext& m_job;
    std::shared_ptr<ScanControl> m_control;
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
}

Scanner::~Scanner()
{
    // The runner's destructor, next, joins the worker: the scan must end first.
    if (m_control)
        m_control->cancel();
}

std::uint64_t Scanner::start(const ScanOptions& options)
{
    // The old job's reads end within 50 ms, so the new one, queued behind it on the same worker, starts at once.
    if (m_control)
        m_control->cancel();
    m_running = true;
    m_cancelled = false;
    m_control = std::make_shared<ScanControl>();
    m_jobId = m_runner.post(
        [this, options, control = m_control](const base::JobContext& job) -> base::JobRunner::Delivery {
            if (options.background)
                base::runAtBackgroundPriority(); // for good: this runner's thread only ever scans for the GUI
            JobSink sink(this, job, control);
            const ScanSummary summary = options.rdbFile.isEmpty() ? runScan(job.id, options, *control, sink)
                                                                  : runRdbFileScan(job.id, options, *control, sink);
            return [this, summary] {
                m_running = false;
                Q_EMIT finished(summary);
            };
        },
        ScanLane);
    return m_jobId;
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

int Scanner::undeliveredBatches() const
{
    return m_control ? m_control->undeliveredBatches() : 0;
}

} // namespace keylens::scan
