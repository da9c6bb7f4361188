#pragma once

#include "base/SideTask.h"
#include "keyspace/Delimiters.h"
#include "live/MonitorSample.h"
#include "redis/ConnectionOptions.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace keylens::models {

// A MONITOR sample (live::sampleMonitor) on a thread of its own, for the window's "Profile for N seconds": the GUI
// thread stays free, Cancel stops it within a moment, and the sample arrives on the GUI thread.
class MonitorRunner : public QObject
{
    Q_OBJECT
public:
    explicit MonitorRunner(QObject* parent = nullptr);
    ~MonitorRunner() override; // cancels and waits: MONITOR never outlives its window

    void start(const redis::ConnectionOptions& options, const keyspace::Delimiters& delimiters, int seconds);
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_task != nullptr; }

Q_SIGNALS:
    void finished(std::shared_ptr<const live::MonitorSample> sample);

private:
    std::unique_ptr<base::SideTask> m_task;
    std::atomic<bool> m_cancel{false};
};

} // namespace keylens::models
