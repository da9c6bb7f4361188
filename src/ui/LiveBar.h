#pragma once

#include <QFrame>
#include <QTime>

class QLabel;
class QPushButton;
class QToolButton;

namespace keylens::models {
class LiveSession;
}

namespace keylens::ui {

// What the live tree is doing, above it: following (with the database's writes per second), the offer to turn the
// server's key events on when it publishes none, why it cannot follow, or that it fell behind, with a rescan.
class LiveBar : public QFrame
{
    Q_OBJECT

public:
    explicit LiveBar(models::LiveSession* live, QWidget* parent = nullptr);
    // The connection shown is read-only: the offer says Keylens will not change the server, and has no button.
    void setReadOnly(bool readOnly);

    // For tests: what the bar says and offers.
    QLabel* text() const { return m_text; }
    QPushButton* turnOnButton() const { return m_turnOn; }
    QPushButton* turnOnAndKeepButton() const { return m_turnOnAndKeep; }
    QPushButton* rescanButton() const { return m_rescan; }

Q_SIGNALS:
    void rescanRequested();

private:
    void refresh();
    void setTone(const char* background);

    models::LiveSession* m_live;
    QLabel* m_text;
    QPushButton* m_turnOn;
    QPushButton* m_turnOnAndKeep;
    QPushButton* m_rescan;
    QToolButton* m_close;
    bool m_readOnly = false;
    bool m_dismissed = false; // until the state changes
    QTime m_followingSince;
    QTime m_behindSince;
};

} // namespace keylens::ui
