#include "base/Disposal.h"

#include "base/ThreadPriority.h"

namespace keylens::base {

Disposal::Disposal(const QString& threadName)
{
    m_thread.setMaxThreadCount(1);
    m_thread.setObjectName(threadName); // its thread's name, where Qt passes it on
}

Disposal::~Disposal()
{
    m_thread.waitForDone();
}

void Disposal::post(std::function<void()> free)
{
    m_thread.start([free = std::move(free)] {
        runAtBackgroundPriority();
        free();
    });
}

} // namespace keylens::base
