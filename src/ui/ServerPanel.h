#pragma once

#include "models/ServerStatusText.h"
#include "models/ValueInspector.h"

#include <QTimer>
#include <QWidget>

#include <functional>

class QFormLayout;
class QLabel;

namespace keylens::models {
class ScanSession;
}

namespace keylens::ui {

// The server at a glance (the Server tab): INFO, read again every two seconds while the tab shows, with the
// scanned keys' memory set beside used_memory. An RDB file read in place of a server: what the file says of itself
// (models::describeRdbFile), once it is read.
class ServerPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshMs = 2000;

    // `scanned` says what the scan has counted so far; it is asked with each answer of the server's. `session`
    // says whether the keys come from a file, and how its reading went.
    ServerPanel(models::ValueInspector* inspector, const models::ScanSession& session,
                std::function<models::ScannedTotals()> scanned, QWidget* parent = nullptr);

    // Reads INFO now when the tab shows (a scan just ended), else waits until it is shown.
    void refreshIfShown();
    // A new server: what was shown is of the old one.
    void serverChanged();

    // For tests: a line's value ("" when there is no such line), and how many answers have been shown.
    QString value(const QString& group, const QString& label) const;
    int answers() const { return m_answers; }

Q_SIGNALS:
    void updated();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void refresh();
    bool showsFile() const; // the session reads an RDB file: no server to ask INFO
    void showFile();
    void takeStatus(const models::ValueInspector::Status& status);
    void rebuild();

    models::ValueInspector* m_inspector;
    const models::ScanSession& m_session;
    std::function<models::ScannedTotals()> m_scanned;
    std::vector<models::StatusGroup> m_groups;
    QTimer m_timer;
    QLabel* m_header;
    QWidget* m_body;
    QFormLayout* m_form;
    int m_answers = 0;
};

} // namespace keylens::ui
