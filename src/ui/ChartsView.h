#pragma once

#include "models/ChartData.h"

#include <QWidget>

class QCustomPlot;
class QGridLayout;
class QLabel;
class QScrollArea;

namespace keylens::ui {

// The charts of the selected node or pattern (QCustomPlot): its biggest children by memory and by keys,
// its type mix, its TTLs by keys and by memory, its key-name lengths against the 44-byte line, memory per
// key on a log axis, and its expiries per minute over the next 24 hours. Each chart exports to PNG, SVG
// and PDF and copies to the clipboard from its context menu.
class ChartsView : public QWidget
{
    Q_OBJECT
public:
    enum Chart { ByMemory, ByKeys, Types, Ttl, IdleAge, NameLengths, MemoryPerKey, Timeline, ChartCount };

    explicit ChartsView(QWidget* parent = nullptr);

    // `fromFile`: the figures are an RDB file's: the memory estimated (the title says so), idle times only if it
    // was saved under an LRU or LFU policy.
    void showData(const QString& title, const models::ChartData& data, bool fromFile = false);
    void showComputing(const QString& title);
    const models::ChartData& data() const { return m_data; }
    QCustomPlot* plot(Chart chart) const { return m_plots[chart]; }

    enum class Format { Png, Svg, Pdf };
    static bool exportPlot(QCustomPlot* plot, const QString& file, Format format);

private:
    void drawBars(Chart chart, const std::vector<models::ChartData::Bar>& bars, bool memory);
    void drawTypes();
    void drawTtl();
    void drawIdleAge();
    // Keys (left axis) and memory (right axis) side by side per bucket: TTLs, idle ages.
    void drawBuckets(Chart chart, const QStringList& names, const QVector<double>& keyCounts,
                     const QVector<double>& bytes);
    void drawNameLengths();
    void drawMemoryPerKey();
    void drawTimeline();
    void addExportMenu(QCustomPlot* plot, const QString& name);
    void placeCharts(int columns);
    // A chart with nothing to draw: no value ticks, and a note of why in its middle (EmptyChart.h).
    void markIfEmpty(Chart chart);
    QString emptyReason(Chart chart) const;

    bool eventFilter(QObject* watched, QEvent* event) override;
    static void fitTitle(QCustomPlot* plot, int width);
    static void fitTickCount(QCustomPlot* plot, int width);

    QLabel* m_title;
    QScrollArea* m_scroll = nullptr;
    QGridLayout* m_grid;
    int m_columns = 0; // charts to a row: 2, or 1 where two do not fit
    QCustomPlot* m_plots[ChartCount];
    models::ChartData m_data;
    bool m_fromFile = false;
};

} // namespace keylens::ui
