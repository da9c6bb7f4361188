#include "redis/ChildProcess.h"

#include "base/QueueThread.h"
#include "redis/ChildEnvironment.h"

#include <QStandardPaths>

#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <functional>
#include <future>
#include <memory>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace keylens::redis {

namespace {

// The kernel's "kill the child when its parent dies" (PR_SET_PDEATHSIG) means the parent *thread*. A tunnel
// opened by a scan thread must outlive that thread, so every child is forked from this one thread, which lives as
// long as the process.
class SpawnerThread
{
public:
    static SpawnerThread& instance()
    {
        // Never destroyed: the thread may still wait on it while static destructors run at exit.
        static SpawnerThread* spawner = new SpawnerThread;
        return *spawner;
    }

    pid_t run(const std::function<pid_t()>& fork)
    {
        auto task = std::make_shared<std::packaged_task<pid_t()>>(fork);
        std::future<pid_t> result = task->get_future();
        m_worker->post([task] { (*task)(); });
        return result.get();
    }

private:
    // Never deleted, as the class comment says.
    base::QueueThread* m_worker = new base::QueueThread(QStringLiteral("keylens spawner"));
};

// Between fork and exec the child of a threaded process may only make async-signal-safe calls: everything it
// needs is prepared before.
[[noreturn]] void becomeChild(pid_t parent, const char* path, char* const argv[], char* const envp[], int devNull,
                              int errorFile)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) // the parent died before the line above
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    dup2(devNull, STDIN_FILENO);
    dup2(devNull, STDOUT_FILENO);
    dup2(errorFile, STDERR_FILENO);
    // Sockets and files of Keylens (a Redis connection, a report being written) are not the child's business.
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
        for (int fd = 3; fd < 4096; ++fd)
            close(fd);
    }
    execve(path, argv, envp);
    _exit(127);
}

} // namespace

ChildProcess::ChildProcess(pid_t pid, int errorFile)
    : m_pid(pid)
    , m_errorFile(errorFile)
{}

ChildProcess::~ChildProcess()
{
    stop();
    close(m_errorFile);
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::start(const QString& program, const QStringList& arguments)
{
    const QString path = QStandardPaths::findExecutable(program);
    if (path.isEmpty())
        return Error{ErrorKind::Unsupported, QStringLiteral("%1 is not installed (no %1 on PATH)").arg(program)};
    const QByteArray pathBytes = path.toLocal8Bit();
    std::vector<QByteArray> argumentBytes{program.toLocal8Bit()};
    for (const QString& argument : arguments)
        argumentBytes.push_back(argument.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& argument : argumentBytes)
        argv.push_back(argument.data());
    argv.push_back(nullptr);
    std::vector<QByteArray> environmentBytes;
    for (const QString& variable : childEnvironment().toStringList())
        environmentBytes.push_back(variable.toLocal8Bit());
    std::vector<char*> envp;
    for (QByteArray& variable : environmentBytes)
        envp.push_back(variable.data());
    envp.push_back(nullptr);

    const int errorFile = memfd_create("keylens-child-stderr", MFD_CLOEXEC);
    const int devNull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (errorFile < 0 || devNull < 0) {
        const int error = errno;
        if (errorFile >= 0)
            close(errorFile);
        if (devNull >= 0)
            close(devNull);
        return Error{ErrorKind::Unsupported,
                     QStringLiteral("cannot start %1: %2").arg(program, qt_error_string(error))};
    }
    const pid_t parent = getpid();
    int forkError = 0;
    const pid_t pid = SpawnerThread::instance().run([&]() -> pid_t {
        const pid_t child = fork();
        if (child == 0)
            becomeChild(parent, pathBytes.constData(), argv.data(), envp.data(), devNull, errorFile);
        if (child < 0)
            forkError = errno;
        return child;
    });
    close(devNull);
    if (pid < 0) {
        close(errorFile);
        return Error{ErrorKind::Unsupported,
                     QStringLiteral("cannot start %1: %2").arg(program, qt_error_string(forkError))};
    }
    return std::unique_ptr<ChildProcess>(new ChildProcess(pid, errorFile));
}

bool ChildProcess::reapLocked(int options)
{
    if (!m_running)
        return true;
    int status = 0;
    const pid_t reaped = waitpid(m_pid, &status, options);
    if (reaped == m_pid || (reaped < 0 && errno == ECHILD))
        m_running = false;
    return !m_running;
}

bool ChildProcess::isRunning()
{
    std::lock_guard lock(m_mutex);
    return !reapLocked(WNOHANG);
}

qsizetype ChildProcess::errorOutputSize() const
{
    struct stat info
    {};
    return fstat(m_errorFile, &info) == 0 ? qsizetype(info.st_size) : 0;
}

QByteArray ChildProcess::errorOutput(qsizetype from) const
{
    constexpr qsizetype Kept = 64 * 1024; // the end of a long log is what explains its end
    const qsizetype size = errorOutputSize();
    from = std::max(from, size - Kept);
    if (from >= size)
        return {};
    QByteArray bytes(size - from, Qt::Uninitialized);
    const ssize_t read = pread(m_errorFile, bytes.data(), std::size_t(bytes.size()), off_t(from));
    bytes.truncate(read < 0 ? 0 : qsizetype(read));
    return bytes;
}

void ChildProcess::stop()
{
    std::lock_guard lock(m_mutex);
    if (reapLocked(WNOHANG))
        return;
    // The whole group: a ProxyCommand ssh started goes with it. The child itself too, in case it has not made its
    // group yet.
    kill(m_pid, SIGTERM);
    kill(-m_pid, SIGTERM);
    for (int waited = 0; waited < 100; ++waited) {
        if (reapLocked(WNOHANG))
            return;
        usleep(10'000);
    }
    kill(m_pid, SIGKILL);
    kill(-m_pid, SIGKILL);
    reapLocked(0);
}

} // namespace keylens::redis
