#pragma once

#include "keyspace/Delimiters.h"
#include "live/MonitorSample.h"
#include "redis/ConnectionOptions.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QTimer>

#include <memory>

class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace keylens::models {
class MonitorRunner;
}

namespace keylens::ui {

// Scan > Profile for N seconds: says what MONITOR costs before it starts (and asks again on a connection tagged
// production), samples for N seconds (60 at most) or until Cancel, then shows per key pattern the calls a second,
// reads and writes, the commands and the keys called most, and what the sample cost (ops/s before and during).
class ProfileDialog : public QDialog
{
    Q_OBJECT
public:
    ProfileDialog(const redis::ConnectionOptions& options, keyspace::Delimiters delimiters, bool production,
                  QWidget* parent = nullptr);

    QPushButton* startButton() const { return m_start; }
    QSpinBox* secondsBox() const { return m_seconds; }
    QTreeWidget* results() const { return m_results; }
    QLabel* summary() const { return m_summary; }

Q_SIGNALS:
    void sampled(); // the results are shown

private:
    void start();
    void showSample(const live::MonitorSample& sample);

    redis::ConnectionOptions m_options;
    keyspace::Delimiters m_delimiters;
    bool m_production;
    models::MonitorRunner* m_runner;
    QSpinBox* m_seconds;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QLabel* m_summary;
    QTreeWidget* m_results;
    QTimer m_tick;
    QElapsedTimer m_clock;
};

} // namespace keylens::ui
