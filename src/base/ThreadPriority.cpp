#include "base/ThreadPriority.h"

#include <QThread>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#endif

namespace keylens::base {

void runAtBackgroundPriority()
{
#ifdef Q_OS_LINUX
    // A Linux thread has a nice value of its own: PRIO_PROCESS with 0 is the calling thread. Qt's LowPriority means
    // nothing there (SCHED_OTHER has one static priority), and IdlePriority would starve the scan behind a local
    // server that keeps both cores busy.
    constexpr int BackgroundNice = 10;
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, 0);
    if (errno == 0 && current < BackgroundNice)
        setpriority(PRIO_PROCESS, 0, BackgroundNice);
#else
    if (QThread* thread = QThread::currentThread())
        thread->setPriority(QThread::LowPriority);
#endif
}

} // namespace keylens::base
