#include "models/MonitorRunner.h"

namespace keylens::models {

MonitorRunner::MonitorRunner(QObject* parent)
    : QObject(parent)
{}

MonitorRunner::~MonitorRunner()
{
    m_cancel.request(); // then m_job's destructor waits: MONITOR never outlives its window
}

void MonitorRunner::start(const redis::ConnectionOptions& options, const keyspace::Delimiters& delimiters, int seconds)
{
    if (isRunning())
        return;
    m_cancel.reset(); // nothing reads it: no sample runs
    auto sample = std::make_shared<std::shared_ptr<const live::MonitorSample>>();
    m_job.start(
        [this, sample, options, delimiters, seconds] {
            *sample = std::make_shared<const live::MonitorSample>(
                live::sampleMonitor(options, delimiters, seconds, m_cancel));
        },
        // On the GUI thread, once the job has returned; a cancelled sample too (cancel() only ends it early).
        [this, sample] { Q_EMIT finished(*sample); });
}

} // namespace keylens::models
