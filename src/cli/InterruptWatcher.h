#pragma once

#include <QObject>

#include <functional>

class QSocketNotifier;

namespace keylens::cli {

// Turns the signals that end a command (SIGINT, SIGTERM, SIGHUP when the terminal or SSH session closes, SIGQUIT) into
// a call on the event loop, so a scan can stop cleanly, print what it has and let destructors stop a demo server or
// give a server its settings back. Restores the default handlers when destroyed.
class InterruptWatcher : public QObject
{
    Q_OBJECT
public:
    // BrokenPipe: SIGPIPE too (the reader of our output went away), for a command that must clean up on the server
    // before it leaves (watch); the others die of it as any pipeline's writer does.
    enum class Pipe { Default, BrokenPipe };
    explicit InterruptWatcher(std::function<void()> onInterrupt = {}, Pipe pipe = Pipe::Default);
    ~InterruptWatcher() override;

    // True once a signal arrived; usable by code that blocks the event loop (the demo's seeding).
    bool hasFired() const;
    // For code that blocks the event loop (watch's intervals): sleeps up to `ms`; true when the time passed, false at
    // once when a signal arrives (or had arrived). A signal handler can wake no condition variable, so this waits on
    // the handler's pipe; onInterrupt still runs at the event loop's next turn.
    bool waitFor(int ms) const;
    // What to do on the next signal, from now on (a watcher that spans several steps of a command).
    void setOnInterrupt(std::function<void()> onInterrupt) { m_onInterrupt = std::move(onInterrupt); }

private:
    std::function<void()> m_onInterrupt;
    QSocketNotifier* m_notifier = nullptr;
    bool m_brokenPipe = false;
};

// The exit code of a command ended by a signal, as a shell reports a process killed by it: 128 + the signal (130 for
// SIGINT, 143 for SIGTERM, 129 for SIGHUP, 131 for SIGQUIT, 141 for SIGPIPE); 130 when no signal came (a cancel).
int interruptedExitCode();

} // namespace keylens::cli
