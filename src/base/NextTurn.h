#pragma once

#include <QObject>
#include <QTimer>

#include <functional>

namespace keylens::base {

// SlicedJob's one-step form: a function run once on the owner's thread at the next turn of its event loop, unless
// cancelled or posted again first: for a step that must be an event of its own (so that input and paint come between
// it and the long event that led to it) and that a newer state may make stale (a rescan started meanwhile cancels it).
// Unlike a slice, it does not wait for another job's slice to have ended (TimeSlice's turns).
//
// Threads: the owner's thread only. Ordering: the last step posted before the turn runs, once; the ones it replaced
// never. Cancel: cancel() drops a posted step at once; a step that runs may post the next.
class NextTurn : public QObject
{
    Q_OBJECT

public:
    explicit NextTurn(const QString& name, QObject* parent = nullptr);

    // Runs `step` at the next turn, instead of a step posted before and not run yet.
    void post(std::function<void()> step);
    // The same with the step set once (setStep): posting again before it ran changes nothing.
    void setStep(std::function<void()> step) { m_fixedStep = std::move(step); }
    void post();
    void cancel();
    bool isPending() const { return m_timer.isActive(); }

private:
    QTimer m_timer;
    std::function<void()> m_step;
    std::function<void()> m_fixedStep;
};

} // namespace keylens::base
