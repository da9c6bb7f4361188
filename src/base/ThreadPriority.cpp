#include "base/ThreadPriority.h"

#include <QThread>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <pthread.h>
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

void setUpThisThread(const QString& name, Priority priority)
{
#ifdef Q_OS_LINUX
    pthread_setname_np(pthread_self(), name.toUtf8().left(15).constData()); // the kernel keeps 15 bytes
#else
    Q_UNUSED(name);
#endif
    if (priority == Priority::Background)
        runAtBackgroundPriority();
}

} // namespace keylens::base
