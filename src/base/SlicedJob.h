#pragma once

#include "base/TimeSlice.h"

#include <QObject>
#include <QTimer>

#include <functional>

namespace keylens::base {

// Work on the GUI thread, a slice per turn of the event loop (runForOneSlice: a few milliseconds, taking turns with
// every other job's slices) until its step says it is done. It owns what each sliced job wrote for itself: the
// zero-interval timer, the unit count learned from the steps, and the cancel. NextTurn is its one-step form.
//
// Threads: the GUI thread (the owner's) only: no thread is started, the step runs in the owner's event loop.
// Ordering: one job at a time: start() drops the running one; a job's steps run in order, each given the units left
// by the one before (the step keeps its own position).
// Cancel: cancel() and start() drop the running job at once: its step is never called again, its `finished` never;
// nothing to wait for.
class SlicedJob : public QObject
{
    Q_OBJECT

public:
    // `step(units)` does up to `units` of work and returns true once all of it is done. It must not start or cancel
    // its own job (`finished` may).
    using Step = std::function<bool(std::size_t units)>;

    // `mostUnits`: the most a step is given (SliceUnits); `name` names the timer (for GammaRay and the like).
    SlicedJob(std::size_t mostUnits, const QString& name, QObject* parent = nullptr);

    // Starts `step`, dropping a running job unfinished. `finished` is called once, when the step is done (not after
    // cancel()); it may start the next job. `firstSliceNow`: one slice before returning, so that a small job is done
    // at once (it does not wait for its turn: the caller is not a slice).
    void start(Step step, std::function<void()> finished, bool firstSliceNow = false);
    // Drops the running job: its step is not called again, its `finished` never.
    void cancel();
    bool isRunning() const { return bool(m_step); }
    // Called after every slice that worked and did not finish (the job's rows shown so far, say), for every job this
    // object runs.
    void setBetweenSlices(std::function<void()> between) { m_between = std::move(between); }

private:
    void slice(bool now); // now: whatever ran just before (the first slice of start())

    QTimer m_timer;
    SliceUnits m_units;
    Step m_step;
    std::function<void()> m_finished;
    std::function<void()> m_between;
};

} // namespace keylens::base
