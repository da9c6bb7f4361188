#pragma once

#include <QObject>

#include <functional>

class QSocketNotifier;

namespace keylens::cli {

// Turns SIGINT and SIGTERM into a call on the event loop, so a scan can stop cleanly, print what it has
// and let destructors stop a demo server. Restores the default handlers when destroyed.
class InterruptWatcher : public QObject
{
    Q_OBJECT
public:
    explicit InterruptWatcher(std::function<void()> onInterrupt = {});
    ~InterruptWatcher() override;

    // True once a signal arrived; usable by code that blocks the event loop (the demo's seeding).
    bool hasFired() const;
    // What to do on the next signal, from now on (a watcher that spans several steps of a command).
    void setOnInterrupt(std::function<void()> onInterrupt) { m_onInterrupt = std::move(onInterrupt); }

private:
    std::function<void()> m_onInterrupt;
    QSocketNotifier* m_notifier = nullptr;
};

} // namespace keylens::cli
