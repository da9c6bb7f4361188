#include "cli/InterruptWatcher.h"

#include <QDeadlineTimer>
#include <QSocketNotifier>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace keylens::cli {

namespace {

int wakePipe[2] = {-1, -1};
std::atomic<bool> fired{false};
std::atomic<int> firstSignal{0}; // for the exit code: the first ending signal of the process
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free number");

extern "C" void onSignal(int signal)
{
    int none = 0;
    firstSignal.compare_exchange_strong(none, signal);
    fired.store(true);
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(wakePipe[1], &byte, 1); // async-signal-safe
}

constexpr int EndingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

} // namespace

InterruptWatcher::InterruptWatcher(std::function<void()> onInterrupt, Pipe pipe)
    : m_onInterrupt(std::move(onInterrupt))
    , m_brokenPipe(pipe == Pipe::BrokenPipe)
{
    fired = false;
    if (wakePipe[0] < 0 && ::pipe2(wakePipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    m_notifier = new QSocketNotifier(wakePipe[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] {
        char buffer[16];
        while (::read(wakePipe[0], buffer, sizeof buffer) > 0) {
        }
        if (m_onInterrupt)
            m_onInterrupt();
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int signal : EndingSignals)
        ::sigaction(signal, &action, nullptr);
    if (m_brokenPipe)
        ::sigaction(SIGPIPE, &action, nullptr);
}

bool InterruptWatcher::hasFired() const
{
    return fired.load();
}

bool InterruptWatcher::waitFor(int ms) const
{
    const QDeadlineTimer deadline(std::max(ms, 0));
    for (;;) {
        if (fired.load())
            return false; // the byte stays in the pipe for the notifier
        const qint64 left = deadline.remainingTime();
        if (left <= 0)
            return true;
        pollfd pipe = {wakePipe[0], POLLIN, 0};
        const int ready = ::poll(&pipe, wakePipe[0] < 0 ? 0 : 1, int(left)); // no pipe: a plain sleep
        if (ready > 0 && !fired.load()) {
            // A byte left by a signal an earlier watcher already answered: taken, or every wait would end at once.
            char buffer[16];
            while (::read(wakePipe[0], buffer, sizeof buffer) > 0) {
            }
        } else if (ready < 0 && errno != EINTR) {
            ::poll(nullptr, 0, int(left)); // the pipe cannot be watched: the rest of the time, as without one
        }
    }
}

InterruptWatcher::~InterruptWatcher()
{
    for (const int signal : EndingSignals)
        std::signal(signal, SIG_DFL);
    if (m_brokenPipe)
        std::signal(SIGPIPE, SIG_DFL);
}

int interruptedExitCode()
{
    const int signal = firstSignal.load();
    return signal > 0 ? 128 + signal : 128 + SIGINT;
}

} // namespace keylens::cli
