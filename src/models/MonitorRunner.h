#pragma once

#include "base/ServiceThread.h"
#include "base/WorkerJob.h"
#include "keyspace/Delimiters.h"
#include "live/MonitorSample.h"
#include "redis/ConnectionOptions.h"

#include <QObject>

#include <memory>

namespace keylens::models {

// A MONITOR sample (live::sampleMonitor) on a thread of its own (a base::WorkerJob), for the window's "Profile for N
// seconds": the GUI thread stays free, Cancel stops it within a moment, and the sample (what came before Cancel too)
// arrives on the GUI thread.
class MonitorRunner : public QObject
{
    Q_OBJECT
public:
    explicit MonitorRunner(QObject* parent = nullptr);
    ~MonitorRunner() override; // cancels and waits: MONITOR never outlives its window

    void start(const redis::ConnectionOptions& options, const keyspace::Delimiters& delimiters, int seconds);
    void cancel() { m_cancel.request(); } // ends the sample at once; what came before is still delivered
    bool isRunning() const { return m_job.isRunning(); }

Q_SIGNALS:
    void finished(std::shared_ptr<const live::MonitorSample> sample);

private:
    base::StopFlag m_cancel; // read by the job: destroyed after it
    base::WorkerJob m_job{QStringLiteral("keylens monitor sample"), this, base::Priority::Normal};
};

} // namespace keylens::models
