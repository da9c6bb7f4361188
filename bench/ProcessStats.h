#pragma once

#include <QStringList>

#include <optional>

// Runs a program with stdout to /dev/null and reports its wall time, CPU time and peak RSS (from wait4).
// Linux counts the spawning process's RSS into the child's peak as it execs, so a child's peak below
// `rssFloorKb` (ours at the time) cannot be told apart from ours: it is then only known to be at most that.
struct ProcessRun
{
    int exitCode = -1;
    double seconds = 0;
    double cpuSeconds = 0; // user and system, all its threads
    long peakRssKb = 0;
    long rssFloorKb = 0;
    bool peakRssKnown() const { return peakRssKb > rssFloorKb; }
};

ProcessRun runMeasured(const QString& program, const QStringList& arguments);

// Peak RSS of this process so far, in kB.
long selfPeakRssKb();
// Current RSS of this process, in kB.
long selfRssKb();
// Pages the calling thread touched first so far (minor faults): each a page the kernel cleared, which is 2 us on
// this virtual machine where the host already backs the memory and 15-45 us where it does not yet.
long threadMinorFaults();

// Where the calling thread's time went, per the kernel's scheduler (/proc/thread-self/schedstat): on a core, or
// ready but waiting for one. Wall time that is neither was spent blocked (a lock, a fault the host served slowly)
// or with the whole virtual machine off its cores, which the guest cannot see.
struct ThreadClock
{
    double runningMs = 0;
    double waitingMs = 0;
    long minorFaults = 0;
    long majorFaults = 0; // pages read back from disk (code the kernel dropped), each a sleep
};
ThreadClock threadClock();
// The same of another process's main thread (the thread whose id is the process id): its time on a core and waiting
// for one, the faults left 0. Nothing if /proc does not tell.
std::optional<ThreadClock> mainThreadClock(qint64 pid);

// The whole machine's CPU time so far, all cores added up (/proc/stat, in the kernel's ticks of 10 ms): what the
// rest of the machine (a server on the same cores, the kernel's own threads) did while a thread of ours waited.
struct MachineClock
{
    double userMs = 0;   // user and nice
    double kernelMs = 0; // system, irq and softirq
    double idleMs = 0;   // idle and iowait
    double stolenMs = 0; // by the host, where the guest is told
};
MachineClock machineClock();
