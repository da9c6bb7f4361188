#pragma once

#include <QStringList>

// Runs a program with stdout to /dev/null and reports its wall time and peak RSS (from wait4).
// Linux counts the spawning process's RSS into the child's peak as it execs, so a child's peak below
// `rssFloorKb` (ours at the time) cannot be told apart from ours: it is then only known to be at most that.
struct ProcessRun
{
    int exitCode = -1;
    double seconds = 0;
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
