#pragma once

#include "scan/ScanTypes.h"

#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;

namespace keylens::ui {

// The scan's progress in the status bar: keys scanned of DBSIZE, keys per second, time left, and
// afterwards what the scan found and anything the reader must know (denied commands...).
class ScanStatusBar : public QWidget
{
    Q_OBJECT
public:
    explicit ScanStatusBar(QWidget* parent = nullptr);

    void showStarting(const QString& what);
    void showProgress(const scan::ScanProgress& progress);
    void showFinished(const scan::ScanSummary& summary, std::uint64_t keys, std::uint64_t memoryBytes);
    // The finished line's key count is as of the scan: once TTLs run out, it says how many are gone.
    void showExpiredSince(std::uint64_t expired);
    void showMessage(const QString& message);
    QString text() const;

private:
    void renderFinished();

    struct Finished
    {
        scan::ScanSummary summary;
        std::uint64_t keys = 0;
        std::uint64_t memoryBytes = 0;
        std::uint64_t expiredSince = 0;
    };
    std::optional<Finished> m_finished; // while the label shows a finished scan
    QLabel* m_label;
    QProgressBar* m_bar;
    QLabel* m_notices;
};

} // namespace keylens::ui
