#pragma once

#include "scan/ScanTypes.h"

#include <QElapsedTimer>
#include <QWidget>

#include <optional>

class QLabel;
class QToolButton;
class QProgressBar;
class QTimer;

namespace keylens::ui {

class ElidedLabel;

// The scan's progress in the status bar: keys scanned of DBSIZE, keys per second, time left, and
// afterwards what the scan found and anything the reader must know (denied commands...). When a running scan
// reports nothing for 3 s (a paused or stopped server, CLIENT PAUSE), it says how long the server has been silent.
class ScanStatusBar : public QWidget
{
    Q_OBJECT
public:
    explicit ScanStatusBar(QWidget* parent = nullptr);

    void showStarting(const QString& what);
    void showProgress(const scan::ScanProgress& progress);
    // `keysMemorySampled`: keys whose memory the server estimated from 5 elements (NamespaceStats').
    void showFinished(const scan::ScanSummary& summary, std::uint64_t keys, std::uint64_t memoryBytes,
                      std::uint64_t keysMemorySampled = 0);
    // The finished line's key count is as of the scan: once TTLs run out, it says how many are gone.
    void showExpiredSince(std::uint64_t expired);
    // The store changed after the scan (an edit, or the live tree following the server): the line gives its keys and
    // memory now. `live`: the tree follows the server, so expired keys have left it and are not counted apart.
    void showStoreNow(std::uint64_t keys, std::uint64_t memoryBytes, bool live);
    void showMessage(const QString& message);
    QString text() const;

private:
    void renderFinished();
    void renderProgress();
    static constexpr int SilentAfterMs = 3000;

    struct Finished
    {
        scan::ScanSummary summary;
        std::uint64_t keys = 0;
        std::uint64_t memoryBytes = 0;
        std::uint64_t expiredSince = 0;
        bool live = false;
        std::uint64_t keysMemorySampled = 0;
    };
    std::optional<Finished> m_finished; // while the label shows a finished scan
    ElidedLabel* m_label;               // the line, ended in an ellipsis where the window is too narrow
    QProgressBar* m_bar;
    QToolButton* m_notices;
    QStringList m_noticeList;                     // the last scan's, shown whole on a click
    std::optional<scan::ScanProgress> m_progress; // while the label shows a running scan
    QElapsedTimer m_sinceProgress;
    QTimer* m_silence; // looks at m_sinceProgress while a scan runs
};

} // namespace keylens::ui
