#pragma once

#include <QStringList>

// Runs a program with stdout to /dev/null and reports its wall time and peak RSS (from wait4).
struct ProcessRun
{
    int exitCode = -1;
    double seconds = 0;
    long peakRssKb = 0;
};

ProcessRun runMeasured(const QString& program, const QStringList& arguments);

// Peak RSS of this process so far, in kB.
long selfPeakRssKb();
// Current RSS of this process, in kB.
long selfRssKb();
