#include "cli/ProgressBar.h"

#include "cli/Output.h"
#include "keyspace/Units.h"

#include <unistd.h>

namespace keylens::cli {

ProgressBar::ProgressBar()
    : m_enabled(::isatty(STDERR_FILENO) == 1)
{}

ProgressBar::~ProgressBar()
{
    clear();
}

void ProgressBar::update(const scan::ScanProgress& progress)
{
    // What keeps the scan waiting (no reply within --command-timeout, a lost connection, a busy server) is said at
    // once, on a line of its own, terminal or not: a scan that has gone silent must not look like one still working.
    if (!progress.trouble.isEmpty() && progress.trouble != m_trouble) {
        clear();
        writeStderr("keylens-cli: " + progress.trouble.toUtf8() + '\n');
    }
    m_trouble = progress.trouble;
    if (!m_enabled)
        return;
    using keyspace::formatCount;
    constexpr int Width = 24;
    QByteArray line = "\r\033[K";
    if (const std::optional<double> fraction = progress.fractionDone()) {
        const int filled = static_cast<int>(*fraction * Width);
        line += '[' + QByteArray(filled, '#') + QByteArray(Width - filled, '.') + "] " +
                QByteArray::number(static_cast<int>(*fraction * 100)) + "%  ";
    }
    if (progress.fromFile) // a file's bytes say how far along it is; its keys are counted as they come
        line +=
            keyspace::formatBytes(progress.bytesRead) +
            (progress.bytesTotal >= 0 ? QByteArray(" / " + keyspace::formatBytes(std::uint64_t(progress.bytesTotal)))
                                      : QByteArray()) +
            "  " + formatCount(progress.keysSeen) + " keys";
    else if (progress.dbsize > 0)
        line += formatCount(progress.keysSeen) + " / " + formatCount(std::uint64_t(progress.dbsize)) + " keys";
    else
        line += formatCount(progress.keysSeen) + " keys";
    line += "  " + formatCount(std::uint64_t(progress.keysPerSecond)) + " keys/s";
    if (progress.etaMs > 0)
        line += "  ETA " + keyspace::formatDuration(progress.etaMs);
    if (progress.paused)
        line += "  (paused)";
    writeStderr(line);
    m_drawn = true;
}

void ProgressBar::clear()
{
    if (m_drawn)
        writeStderr("\r\033[K");
    m_drawn = false;
}

} // namespace keylens::cli
