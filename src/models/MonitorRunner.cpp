#include "models/MonitorRunner.h"

namespace keylens::models {

MonitorRunner::MonitorRunner(QObject* parent)
    : QObject(parent)
{}

MonitorRunner::~MonitorRunner()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void MonitorRunner::start(const redis::ConnectionOptions& options, const keyspace::Delimiters& delimiters, int seconds)
{
    if (isRunning())
        return;
    m_cancel = false;
    m_thread = std::thread([this, options, delimiters, seconds] {
        auto sample =
            std::make_shared<const live::MonitorSample>(live::sampleMonitor(options, delimiters, seconds, m_cancel));
        // Delivered on the GUI thread, after the thread is joined there (the lambda runs after run() returned).
        QMetaObject::invokeMethod(
            this,
            [this, sample] {
                if (m_thread.joinable())
                    m_thread.join();
                Q_EMIT finished(sample);
            },
            Qt::QueuedConnection);
    });
}

} // namespace keylens::models
