#pragma once

#include "scan/ScanTypes.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace keylens::ui {

// A cluster's shards side by side (the Shards tab): keys and memory per shard as a table and as bars against an
// even share, so that a hot or skewed shard shows, and which shard failed.
class ShardsPane : public QWidget
{
    Q_OBJECT
public:
    explicit ShardsPane(QWidget* parent = nullptr);

    void showShards(const std::vector<scan::ShardScan>& shards, bool memoryMeasured);
    QString summaryText() const; // for tests: the line over the table

private:
    QLabel* m_summary;
    QTableWidget* m_table;
    QCustomPlot* m_memoryPlot;
    QCustomPlot* m_keysPlot;
};

} // namespace keylens::ui
