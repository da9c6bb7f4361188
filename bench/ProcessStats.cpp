#include "ProcessStats.h"

#include <QElapsedTimer>
#include <QFile>

#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

ProcessRun runMeasured(const QString& program, const QStringList& arguments)
{
    std::vector<QByteArray> storage;
    storage.push_back(program.toLocal8Bit());
    for (const QString& argument : arguments)
        storage.push_back(argument.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& item : storage)
        argv.push_back(item.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    ProcessRun run;
    run.rssFloorKb = selfPeakRssKb();
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    if (posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
        return run;
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    run.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.peakRssKb = usage.ru_maxrss;
    const auto seconds = [](const timeval& time) { return double(time.tv_sec) + double(time.tv_usec) / 1e6; };
    run.cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    posix_spawn_file_actions_destroy(&actions);
    return run;
}

long selfPeakRssKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

long selfRssKb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    }
    return 0;
}

namespace {

rusage threadUsage()
{
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage;
}

} // namespace

long threadMinorFaults()
{
    return threadUsage().ru_minflt;
}

namespace {

// A schedstat file's first two fields, nanoseconds on a core and waiting for one: false if it could not be read.
bool readSchedstat(int fd, ThreadClock& clock)
{
    char text[128] = {};
    if (fd < 0 || pread(fd, text, sizeof text - 1, 0) <= 0)
        return false;
    unsigned long long runningNs = 0;
    unsigned long long waitingNs = 0;
    if (std::sscanf(text, "%llu %llu", &runningNs, &waitingNs) != 2)
        return false;
    clock.runningMs = double(runningNs) / 1e6;
    clock.waitingMs = double(waitingNs) / 1e6;
    return true;
}

} // namespace

ThreadClock threadClock()
{
    ThreadClock clock;
    const rusage usage = threadUsage();
    clock.minorFaults = usage.ru_minflt;
    clock.majorFaults = usage.ru_majflt;
    // Opened once per thread: the probe reads it every few milliseconds.
    thread_local const int schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    readSchedstat(schedstat, clock);
    return clock;
}

std::optional<ThreadClock> mainThreadClock(qint64 pid)
{
    const int schedstat =
        open(QByteArray("/proc/" + QByteArray::number(pid) + "/schedstat").constData(), O_RDONLY | O_CLOEXEC);
    ThreadClock clock;
    const bool read = readSchedstat(schedstat, clock);
    if (schedstat >= 0)
        close(schedstat);
    return read ? std::optional(clock) : std::nullopt;
}

MachineClock machineClock()
{
    MachineClock clock;
    thread_local const int stat = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    char text[256] = {};
    if (stat < 0 || pread(stat, text, sizeof text - 1, 0) <= 0)
        return clock;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (std::sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle, &iowait, &irq,
                    &softirq, &steal) != 8)
        return clock;
    const double msPerTick = 1000.0 / double(sysconf(_SC_CLK_TCK));
    clock.userMs = double(user + nice) * msPerTick;
    clock.kernelMs = double(system + irq + softirq) * msPerTick;
    clock.idleMs = double(idle + iowait) * msPerTick;
    clock.stolenMs = double(steal) * msPerTick;
    return clock;
}
