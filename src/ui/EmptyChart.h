#pragma once

// A chart with nothing to draw. Include after ui/QCustomPlotHeader.h, from .cpp files only.

#include <QColor>
#include <QString>

class QCPAxis;
class QCustomPlot;

namespace keylens::ui {

// After a chart is drawn: where every value of its bars is 0, its value axes (and `bare`, when given) show no ticks
// (a 0..1 range was labelled "1 B 1 B 0 B": halves, rounded, which read as data), and a note in the middle of its
// plotting area says `why`, in `colour`. Its ticks come back when it has values again. True when it was empty.
bool markEmptyChart(QCustomPlot* plot, const QString& why, QCPAxis* bare, const QColor& colour);

// The note's words on as many lines as the plotting area's width takes: call after each layout of the chart
// (QCustomPlot::afterLayout), when that width is known. The idle chart's "not measured (Scan > Measure idle times)"
// ran past both edges of a chart at 1600 px.
void fitEmptyChartNote(QCustomPlot* plot);

} // namespace keylens::ui
