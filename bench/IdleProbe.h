#pragma once

#include <QElapsedTimer>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

// A control for the GUI thread's stall probe: a thread of the same process that does nothing but sleep IntervalMs
// at a time, and records how late it woke up. Whatever delays it (a kernel thread holding a core, the host taking the
// machine's cores away) is the machine's, not Keylens's: a stall of the GUI thread that this thread saw as well, at
// the same moment, would have happened to any program.
//
// On the development VM (a guest kernel without preemption, and DAMON's kdamond clearing access bits every 500 ms),
// a separate process doing only this was woken up to 113 ms late during a scan of ten million keys.
class IdleProbe
{
public:
    static constexpr int IntervalMs = 5;

    // `clock` is the one the caller's own figures are on; it must outlive the probe.
    explicit IdleProbe(const QElapsedTimer& clock);
    ~IdleProbe();
    IdleProbe(const IdleProbe&) = delete;
    IdleProbe& operator=(const IdleProbe&) = delete;

    void start(); // forgets what an earlier run saw
    void stop();

    // How late it woke up at most, of the sleeps that overlap [fromMs, toMs] on the caller's clock (0: none over 1 ms).
    double lateBetween(double fromMs, double toMs) const;
    double longest() const;

private:
    struct Late
    {
        double fromMs; // when it went to sleep
        double lateMs;
    };
    double nowMs() const;
    void run();

    const QElapsedTimer& m_clock;
    std::thread m_thread;
    std::atomic<bool> m_running{false};
    mutable std::mutex m_mutex;
    std::vector<Late> m_late; // only the wake-ups over 1 ms late: a few thousand a minute at most
};
