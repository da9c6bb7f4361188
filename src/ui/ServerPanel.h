#pragma once

#include "models/ServerStatusText.h"
#include "models/ValueInspector.h"

#include <QTimer>
#include <QWidget>

class QFormLayout;
class QLabel;

namespace keylens::ui {

// The server at a glance (the Server tab): INFO, read again every two seconds while the tab shows, with the
// scanned keys' memory set beside used_memory.
class ServerPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshMs = 2000;

    explicit ServerPanel(models::ValueInspector* inspector, QWidget* parent = nullptr);

    // What the scan counted; shown with the next answer.
    void setScanned(const models::ScannedTotals& scanned) { m_scanned = scanned; }
    void refresh();
    // A new server: what was shown is of the old one.
    void clear();

    // For tests: a line's value ("" when there is no such line), and how many answers have been shown.
    QString value(const QString& group, const QString& label) const;
    int answers() const { return m_answers; }

Q_SIGNALS:
    void updated();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void takeStatus(const models::ValueInspector::Status& status);
    void rebuild();

    models::ValueInspector* m_inspector;
    models::ScannedTotals m_scanned;
    redis::ServerStatus m_status;
    bool m_haveStatus = false;
    std::vector<models::StatusGroup> m_groups;
    QTimer m_timer;
    QLabel* m_header;
    QWidget* m_body;
    QFormLayout* m_form;
    int m_answers = 0;
};

} // namespace keylens::ui
