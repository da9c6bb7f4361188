#pragma once

#include "scan/ScanTypes.h"

namespace keylens::cli {

// A one-line progress bar on stderr, drawn only when stderr is a terminal, so pipes and CI logs stay clean; what keeps
// the scan waiting is written as a line of its own either way.
class ProgressBar
{
public:
    ProgressBar();
    ~ProgressBar();
    void update(const scan::ScanProgress& progress);
    void clear();

private:
    bool m_enabled;
    bool m_drawn = false;
    QString m_trouble; // the last one written
};

} // namespace keylens::cli
