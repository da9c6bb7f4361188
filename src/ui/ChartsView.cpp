// clang-format off
#include "ui/QCustomPlotHeader.h" // first: see there
// clang-format on

#include "ui/ChartsView.h"

#include "keyspace/KeyType.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "ui/ChartTickers.h"
#include "ui/EmptyChart.h"
#include "ui/OverlayColours.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include <cmath>

namespace keylens::ui {

using models::ChartData;
using models::displayText;

namespace {

QCustomPlot* newPlot(const QString& title)
{
    auto* plot = new QCustomPlot;
    plot->setMinimumHeight(190);
    plot->setMinimumWidth(220);
    plot->setObjectName(title);
    plot->plotLayout()->insertRow(0);
    QFont font = plot->font();
    font.setBold(true);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, font));
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    return plot;
}

void clear(QCustomPlot* plot)
{
    plot->clearPlottables();
    plot->clearItems();
    plot->legend->setVisible(false);
    plot->yAxis2->setVisible(false);
}

template<typename Values> double maximum(const Values& values)
{
    double top = 0;
    for (const auto value : values)
        top = std::max(top, double(value));
    return top;
}

} // namespace

ChartsView::ChartsView(QWidget* parent)
    : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setWordWrap(true);
    QFont font = m_title->font();
    font.setBold(true);
    m_title->setFont(font);
    const QString titles[ChartCount] = {tr("Biggest children by memory"),
                                        tr("Biggest children by keys"),
                                        tr("Types (keys)"),
                                        tr("TTL: keys (blue), memory (orange)"),
                                        tr("Memory by idle age (OBJECT IDLETIME)"),
                                        tr("Key-name length (bytes)"),
                                        tr("Memory per key (log axis)"),
                                        tr("Expiries per minute, next 24 h")};
    auto* grid = new QWidget;
    m_grid = new QGridLayout(grid);
    m_grid->setContentsMargins(0, 0, 0, 0);
    for (int chart = 0; chart < ChartCount; ++chart) {
        m_plots[chart] = newPlot(titles[chart]);
        addExportMenu(m_plots[chart], titles[chart]);
        QCustomPlot* plot = m_plots[chart];
        connect(plot, &QCustomPlot::afterLayout, this, [plot] { fitEmptyChartNote(plot); });
    }
    placeCharts(2);
    auto* scroll = m_scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->viewport()->installEventFilter(this); // one chart to a row where two do not fit
    // The wheel scrolls the panel even over a chart (which would take it and do nothing with it).
    for (QCustomPlot* plot : m_plots)
        plot->installEventFilter(this);
    scroll->setWidget(grid);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* box = new QVBoxLayout(this);
    box->addWidget(m_title);
    box->addWidget(scroll, 1);
}

void ChartsView::placeCharts(int columns)
{
    // Two to a row, the timeline (wide by nature) on a row of its own; an odd chart before it takes a whole row. One
    // to a row where two do not fit side by side: at 800 px the second of each row was cut at the pane's edge.
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (QCustomPlot* plot : m_plots)
        m_grid->removeWidget(plot);
    for (int chart = 0; chart < ChartCount; ++chart) {
        if (columns == 1) {
            m_grid->addWidget(m_plots[chart], chart, 0);
            continue;
        }
        const bool wholeRow = chart == Timeline || (chart == Timeline - 1 && Timeline % 2 == 1);
        m_grid->addWidget(m_plots[chart], chart == Timeline ? (Timeline + 1) / 2 : chart / 2, wholeRow ? 0 : chart % 2,
                          1, wholeRow ? 2 : 1);
    }
}

bool ChartsView::eventFilter(QObject* watched, QEvent* event)
{
    if (m_scroll && watched == m_scroll->viewport() && event->type() == QEvent::Resize) {
        const int width = static_cast<QResizeEvent*>(event)->size().width();
        placeCharts(width >= 2 * m_plots[0]->minimumWidth() + m_grid->horizontalSpacing() ? 2 : 1);
    }
    auto* plot = qobject_cast<QCustomPlot*>(watched);
    if (plot && event->type() == QEvent::Wheel) {
        QCoreApplication::sendEvent(m_scroll->verticalScrollBar(), event);
        return true;
    }
    if (plot && event->type() == QEvent::Resize) {
        fitTitle(plot, static_cast<QResizeEvent*>(event)->size().width());
        fitTickCount(plot, static_cast<QResizeEvent*>(event)->size().width());
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    return QWidget::eventFilter(watched, event);
}

void ChartsView::fitTitle(QCustomPlot* plot, int width)
{
    // A title wider than its chart was cut at both ends ("TTL: keys (blue), memory (orange)" in 220 px): its words
    // go on as many lines as it takes.
    auto* element = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
    if (!element)
        return;
    const QFontMetrics metrics(element->font());
    QStringList lines;
    for (const QString& word : plot->objectName().split(u' ')) {
        if (!lines.isEmpty() && metrics.horizontalAdvance(lines.back() + u' ' + word) <= width - 8)
            lines.back() += u' ' + word;
        else
            lines << word;
    }
    element->setText(lines.join(u'\n'));
}

void ChartsView::fitTickCount(QCustomPlot* plot, int width)
{
    // Byte and count labels along a horizontal axis ("1.72 MiB", "12,500"): a step per 100 px of the chart past its
    // first 100 (the names on the left take some), kept to (the tickers meet the count: count + 1 labels), so that
    // they never overprint on a narrow chart. One step is rounded up past the top of the range: a chart of 340 px,
    // one to a row at 800 px, said "0 B" alone.
    QCPAxisTicker* ticker = plot->xAxis->ticker().data();
    if (dynamic_cast<ByteTicker*>(ticker) || dynamic_cast<CountTicker*>(ticker)) {
        ticker->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
        ticker->setTickCount(std::clamp((width - 100) / 100, 1, 4));
    }
}

void ChartsView::showComputing(const QString& title)
{
    m_title->setText(title + tr(" — counting…"));
}

void ChartsView::showData(const QString& title, const ChartData& data, bool fromFile)
{
    m_data = data;
    m_fromFile = fromFile;
    m_title->setText((data.keys == 1 ? tr("%1 — %2 key, %3") : tr("%1 — %2 keys, %3"))
                         .arg(title, displayText(keyspace::formatCount(data.keys)),
                              models::estimatedFigure(displayText(keyspace::formatBytes(data.memoryBytes)), fromFile)));
    m_title->setToolTip(fromFile ? models::estimatedMemoryNote() : QString());
    drawBars(ByMemory, data.byMemory, true);
    drawBars(ByKeys, data.byKeys, false);
    drawTypes();
    drawTtl();
    drawIdleAge();
    drawNameLengths();
    drawMemoryPerKey();
    drawTimeline();
    for (int chart = 0; chart < ChartCount; ++chart)
        markIfEmpty(Chart(chart));
    for (QCustomPlot* plot : m_plots)
        plot->replot();
}

QString ChartsView::emptyReason(Chart chart) const
{
    if (m_data.keys == 0)
        return tr("No keys here");
    switch (chart) {
    case ByMemory:
        return m_data.byMemory.empty() ? tr("Nothing below it to compare") : tr("Memory not measured");
    case ByKeys:
        return tr("Nothing below it to compare");
    case Ttl:
        return tr("TTLs not measured");
    case IdleAge:
        return m_fromFile ? tr("Idle times not measured (the file was saved without an LRU or LFU policy)")
                          : tr("Idle times not measured (Scan > Measure idle times)");
    case MemoryPerKey:
        return tr("Memory not measured");
    case Timeline:
        return tr("No key expires in the next 24 hours");
    case Types:
    case NameLengths:
    case ChartCount:
        break;
    }
    return tr("Nothing to chart");
}

void ChartsView::markIfEmpty(Chart chart)
{
    // Byte sizes along the bottom of an empty log chart say nothing either.
    QCPAxis* bare = chart == MemoryPerKey ? m_plots[chart]->xAxis : nullptr;
    markEmptyChart(m_plots[chart], emptyReason(chart), bare, palette().color(QPalette::PlaceholderText));
}

void ChartsView::drawBars(Chart chart, const std::vector<ChartData::Bar>& bars, bool memory)
{
    QCustomPlot* plot = m_plots[chart];
    clear(plot);
    // Horizontal bars, biggest on top: the names read along the left axis.
    auto* series = new QCPBars(plot->yAxis, plot->xAxis);
    series->setBrush(memory ? overlay::memorySeries() : overlay::keysSeries());
    series->setPen(Qt::NoPen);
    series->setWidth(0.7);
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    QVector<double> positions, values;
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const double value = double(memory ? bars[i].memoryBytes : bars[i].keys);
        positions << double(i + 1);
        values << value;
        // A long name (a URL, a path) keeps its start and end, and no more width than the bars can spare.
        QString label = bars[i].label;
        if (label.size() > 24)
            label = label.left(13) + u'…' + label.right(10);
        names->addTick(double(i + 1), label);
    }
    series->setData(positions, values, true);
    plot->yAxis->setTicker(names);
    plot->yAxis->setRangeReversed(true);
    plot->yAxis->setRange(0.4, double(std::max<std::size_t>(bars.size(), 1)) + 0.6);
    plot->xAxis->setTicker(memory ? QSharedPointer<QCPAxisTicker>(new ByteTicker)
                                  : QSharedPointer<QCPAxisTicker>(new CountTicker));
    fitTickCount(plot, plot->width());
    plot->xAxis->setRange(0, std::max(1.0, maximum(values) * 1.08));
}

void ChartsView::drawTypes()
{
    QCustomPlot* plot = m_plots[Types];
    clear(plot);
    auto* series = new QCPBars(plot->xAxis, plot->yAxis);
    series->setBrush(overlay::keysSeries());
    series->setPen(Qt::NoPen);
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    QVector<double> positions, values;
    for (int type = 0; type < keyspace::KeyTypeCount; ++type) {
        if (m_data.types[std::size_t(type)] == 0)
            continue;
        positions << double(positions.size() + 1);
        values << double(m_data.types[std::size_t(type)]);
        names->addTick(positions.back(), displayText(keyspace::keyTypeName(keyspace::KeyType(type)).toByteArray()));
    }
    series->setData(positions, values, true);
    plot->xAxis->setTicker(names);
    plot->xAxis->setRange(0.4, double(std::max<qsizetype>(positions.size(), 1)) + 0.6);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->yAxis->setRange(0, std::max(1.0, maximum(values) * 1.1));
}

void ChartsView::drawTtl()
{
    QStringList names;
    QVector<double> keyCounts, bytes;
    for (int bucket = 0; bucket < ChartData::TtlBuckets; ++bucket) {
        names << ChartData::ttlBucketName(bucket);
        keyCounts << double(m_data.ttlKeys[std::size_t(bucket)]);
        bytes << double(m_data.ttlMemory[std::size_t(bucket)]);
    }
    drawBuckets(Ttl, names, keyCounts, bytes);
}

void ChartsView::drawIdleAge()
{
    QStringList names;
    QVector<double> keyCounts, bytes;
    for (int bucket = 0; bucket < ChartData::IdleBuckets; ++bucket) {
        names << ChartData::idleBucketName(bucket);
        keyCounts << double(m_data.idleKeys[std::size_t(bucket)]);
        bytes << double(m_data.idleMemory[std::size_t(bucket)]);
    }
    // Nothing measured is said over the empty bars (markIfEmpty), which would otherwise read as "nothing is idle".
    drawBuckets(IdleAge, names, keyCounts, bytes);
}

void ChartsView::drawBuckets(Chart chart, const QStringList& names, const QVector<double>& keyCounts,
                             const QVector<double>& bytes)
{
    QCustomPlot* plot = m_plots[chart];
    clear(plot);
    auto* group = new QCPBarsGroup(plot);
    auto* keys = new QCPBars(plot->xAxis, plot->yAxis);
    auto* memory = new QCPBars(plot->xAxis, plot->yAxis2);
    keys->setName(QStringLiteral("keys"));
    memory->setName(QStringLiteral("memory"));
    keys->setBrush(overlay::keysSeries());
    memory->setBrush(overlay::memorySeries());
    for (QCPBars* bars : {keys, memory}) {
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.38);
        bars->setBarsGroup(group);
    }
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    QVector<double> positions;
    for (qsizetype bucket = 0; bucket < keyCounts.size(); ++bucket) {
        positions << double(bucket + 1);
        ticks->addTick(double(bucket + 1), names.value(bucket));
    }
    keys->setData(positions, keyCounts, true);
    memory->setData(positions, bytes, true);
    plot->xAxis->setTicker(ticks);
    plot->xAxis->setTickLabelRotation(-40); // eight bucket names side by side overlap on a chart of normal width
    plot->xAxis->setRange(0.4, double(keyCounts.size()) + 0.6);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->yAxis->setRange(0, std::max(1.0, maximum(keyCounts) * 1.1));
    plot->yAxis2->setVisible(true);
    plot->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new ByteTicker));
    plot->yAxis2->ticker()->setTickCount(3);
    plot->yAxis2->setRange(0, std::max(1.0, maximum(bytes) * 1.1));
}

void ChartsView::drawNameLengths()
{
    QCustomPlot* plot = m_plots[NameLengths];
    clear(plot);
    auto* series = new QCPBars(plot->xAxis, plot->yAxis);
    series->setBrush(overlay::keysSeries());
    series->setPen(Qt::NoPen);
    series->setWidth(ChartData::NameLengthStep * 0.9);
    QVector<double> positions, values;
    int last = 0;
    for (int bucket = 0; bucket < ChartData::NameLengthBuckets; ++bucket) {
        positions << bucket * ChartData::NameLengthStep + ChartData::NameLengthStep / 2.0;
        values << double(m_data.nameLengths[std::size_t(bucket)]);
        if (m_data.nameLengths[std::size_t(bucket)] > 0)
            last = bucket;
    }
    series->setData(positions, values, true);
    const double right = std::max(60.0, double((last + 2) * ChartData::NameLengthStep));
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot->xAxis->setRange(0, right);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->yAxis->setRange(0, std::max(1.0, maximum(values) * 1.1));
    // The key-length rule's first threshold: past 44 bytes a key stops fitting Redis's embedded strings.
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(44, 0);
    line->point2->setCoords(44, 1);
    line->setPen(QPen(overlay::bigKey(), 1.5, Qt::DashLine));
    auto* label = new QCPItemText(plot);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(44, 0.05);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setText(QStringLiteral(" 44 B"));
    label->setColor(overlay::bigKey());
}

void ChartsView::drawMemoryPerKey()
{
    QCustomPlot* plot = m_plots[MemoryPerKey];
    clear(plot);
    auto* series = new QCPBars(plot->xAxis, plot->yAxis);
    series->setBrush(overlay::memorySeries());
    series->setPen(Qt::NoPen);
    // On a log axis a bucket [2^b, 2^(b+1)) is a bar of equal width: placed at its geometric middle.
    series->setWidthType(QCPBars::wtAxisRectRatio);
    QVector<double> positions, values;
    int first = ChartData::MemoryBuckets, last = 0;
    for (int bucket = 0; bucket < ChartData::MemoryBuckets; ++bucket) {
        positions << std::ldexp(1.0, bucket) * std::sqrt(2.0);
        values << double(m_data.memoryPerKey[std::size_t(bucket)]);
        if (m_data.memoryPerKey[std::size_t(bucket)] > 0) {
            first = std::min(first, bucket);
            last = bucket;
        }
    }
    if (first > last)
        first = last = 6;
    series->setWidth(0.8 / double(last - first + 2));
    series->setData(positions, values, true);
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<ByteLogTicker>(new ByteLogTicker);
    // At most about four byte labels, whatever the span: a power of two per step that is wide enough (4, 16, 256…
    // bytes apart), or "1 KiB 4 KiB 16 KiB…" overprint each other on a narrow chart.
    const int doublings = last + 1 - first;
    ticker->setLogBase(std::ldexp(1.0, std::max(2, (doublings + 3) / 4)));
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(std::ldexp(1.0, first), std::ldexp(1.0, last + 1));
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->yAxis->setRange(0, std::max(1.0, maximum(values) * 1.1));
}

void ChartsView::drawTimeline()
{
    QCustomPlot* plot = m_plots[Timeline];
    clear(plot);
    auto* series = new QCPBars(plot->xAxis, plot->yAxis);
    series->setBrush(overlay::keysSeries());
    series->setPen(Qt::NoPen);
    series->setWidth(1.0);
    QVector<double> positions, values;
    for (int minute = 0; minute < ChartData::TimelineMinutes; ++minute) {
        positions << minute + 0.5;
        values << double(m_data.expiriesPerMinute[std::size_t(minute)]);
    }
    series->setData(positions, values, true);
    QSharedPointer<QCPAxisTickerText> hours(new QCPAxisTickerText);
    for (int hour = 0; hour <= 24; hour += 3)
        hours->addTick(hour * 60.0, hour == 0 ? tr("now") : tr("+%1 h").arg(hour));
    plot->xAxis->setTicker(hours);
    plot->xAxis->setRange(0, ChartData::TimelineMinutes);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->yAxis->setRange(0, std::max(1.0, maximum(values) * 1.1));
}

void ChartsView::addExportMenu(QCustomPlot* plot, const QString& name)
{
    plot->setContextMenuPolicy(Qt::ActionsContextMenu);
    const auto exportAs = [this, plot, name](Format format, const QString& suffix) {
        const QString file = QFileDialog::getSaveFileName(this, tr("Export %1").arg(name), name + u'.' + suffix,
                                                          suffix.toUpper() + QStringLiteral(" (*.") + suffix + u')');
        if (!file.isEmpty())
            exportPlot(plot, file, format);
    };
    auto* png = new QAction(tr("Export PNG…"), plot);
    connect(png, &QAction::triggered, this, [=] { exportAs(Format::Png, QStringLiteral("png")); });
    auto* svg = new QAction(tr("Export SVG…"), plot);
    connect(svg, &QAction::triggered, this, [=] { exportAs(Format::Svg, QStringLiteral("svg")); });
    auto* pdf = new QAction(tr("Export PDF…"), plot);
    connect(pdf, &QAction::triggered, this, [=] { exportAs(Format::Pdf, QStringLiteral("pdf")); });
    auto* copy = new QAction(tr("Copy"), plot);
    connect(copy, &QAction::triggered, this, [plot] { QApplication::clipboard()->setPixmap(plot->toPixmap()); });
    plot->addActions({png, svg, pdf, copy});
}

bool ChartsView::exportPlot(QCustomPlot* plot, const QString& file, Format format)
{
    switch (format) {
    case Format::Png:
        return plot->savePng(file, 0, 0, 2.0);
    case Format::Pdf:
        return plot->savePdf(file);
    case Format::Svg: {
        QSvgGenerator generator;
        generator.setFileName(file);
        generator.setSize(plot->size());
        generator.setViewBox(QRect(QPoint(0, 0), plot->size()));
        generator.setTitle(plot->objectName());
        QCPPainter painter;
        if (!painter.begin(&generator))
            return false;
        plot->toPainter(&painter, plot->width(), plot->height());
        painter.end();
        return QFileInfo(file).size() > 0;
    }
    }
    return false;
}

} // namespace keylens::ui
