#include "models/MonitorRunner.h"

namespace keylens::models {

MonitorRunner::MonitorRunner(QObject* parent)
    : QObject(parent)
{}

MonitorRunner::~MonitorRunner()
{
    m_cancel = true;
    m_task.reset(); // waits
}

void MonitorRunner::start(const redis::ConnectionOptions& options, const keyspace::Delimiters& delimiters, int seconds)
{
    if (isRunning())
        return;
    m_cancel = false;
    m_task = std::make_unique<base::SideTask>([this, options, delimiters, seconds] {
        auto sample =
            std::make_shared<const live::MonitorSample>(live::sampleMonitor(options, delimiters, seconds, m_cancel));
        // Delivered on the GUI thread, once the task is waited for there.
        QMetaObject::invokeMethod(
            this,
            [this, sample] {
                m_task.reset(); // waits for the task's last instructions
                Q_EMIT finished(sample);
            },
            Qt::QueuedConnection);
    });
}

} // namespace keylens::models
