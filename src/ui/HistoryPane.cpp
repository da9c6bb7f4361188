// clang-format off
#include "ui/QCustomPlotHeader.h" // first: see there
// clang-format on

#include "ui/HistoryPane.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "ui/ChartTickers.h"
#include "ui/CompareDialog.h"
#include "ui/OverlayColours.h"

#include <QDir>
#include <QLabel>
#include <QVBoxLayout>

#include <memory>

namespace keylens::ui {

using models::displayText;

namespace {

double secondsOf(std::int64_t ms)
{
    return double(ms) / 1000.0;
}

} // namespace

HistoryPane::HistoryPane(QWidget* parent)
    : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setWordWrap(true);
    QFont font = m_title->font();
    font.setBold(true);
    m_title->setFont(font);
    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setEnabled(false);

    // Memory above, keys below, one time axis: on one pair of axes the two lines lie on each other whenever the bytes
    // per key stay the same.
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("history"));
    // Two charts of 80 px at least: at 260 the side pane's tabs held the whole window 350 px tall, and the Findings
    // panel below it was squeezed to two rows at 800x600.
    m_plot->setMinimumHeight(160);
    m_plot->setBackground(palette().color(QPalette::Base));
    QCPAxisRect* memoryRect = m_plot->axisRect();
    auto* keysRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, keysRect);
    auto* margins = new QCPMarginGroup(m_plot);
    memoryRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    keysRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    auto dates = QSharedPointer<QCPAxisTickerDateTime>::create();
    dates->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    dates->setTickCount(3);
    keysRect->axis(QCPAxis::atBottom)->setTicker(dates);
    memoryRect->axis(QCPAxis::atBottom)->setTicker(dates);
    memoryRect->axis(QCPAxis::atBottom)->setTickLabels(false); // the keys' axis says the times
    connect(memoryRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            keysRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(keysRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            memoryRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    memoryRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new ByteTicker));
    memoryRect->axis(QCPAxis::atLeft)->setLabel(tr("Memory"));
    memoryRect->axis(QCPAxis::atLeft)->setLabelColor(overlay::memorySeries());
    keysRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    keysRect->axis(QCPAxis::atLeft)->setLabel(tr("Keys"));
    keysRect->axis(QCPAxis::atLeft)->setLabelColor(overlay::keysSeries());
    for (QCPAxisRect* rect : {memoryRect, keysRect}) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setTickLabelColor(palette().color(QPalette::WindowText));
            axis->setBasePen(QPen(palette().color(QPalette::Mid)));
            axis->setTickPen(QPen(palette().color(QPalette::Mid)));
            axis->setSubTickPen(QPen(palette().color(QPalette::Mid)));
        }
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
    }

    const auto addGraph = [this](QCPAxisRect* rect, const QColor& colour, QCPScatterStyle::ScatterShape shape,
                                 bool line, const QString& name) {
        QCPGraph* graph = m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setName(name);
        graph->setPen(QPen(colour, 2));
        graph->setLineStyle(line ? QCPGraph::lsLine : QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(shape, colour, line ? colour : palette().color(QPalette::Base), 7));
        return graph;
    };
    // 0: memory, 1: keys, 2 and 3: the points of partial scans (lower bounds), hollow.
    addGraph(memoryRect, overlay::memorySeries(), QCPScatterStyle::ssCircle, true, tr("Memory"));
    addGraph(keysRect, overlay::keysSeries(), QCPScatterStyle::ssCircle, true, tr("Keys"));
    addGraph(memoryRect, overlay::memorySeries(), QCPScatterStyle::ssDiamond, false, tr("Memory (partial scan)"));
    addGraph(keysRect, overlay::keysSeries(), QCPScatterStyle::ssDiamond, false, tr("Keys (partial scan)"));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_note);
    redraw();
}

HistoryPane::~HistoryPane() = default;

void HistoryPane::setFolder(const QString& folder, std::shared_ptr<const history::Snapshot> newest)
{
    m_folder = folder;
    auto read = std::make_shared<history::SnapshotSeries>();
    auto unreadable = std::make_shared<QStringList>();
    m_reading.start(
        [folder, read, unreadable, latest = std::move(newest), cancel = &m_reading.cancelFlag()] {
            if (!folder.isEmpty())
                *read = history::SnapshotSeries::readFolder(folder, unreadable.get(), cancel);
            if (latest)
                read->add(*latest);
        },
        [this, read, unreadable] {
            m_series = std::move(*read);
            m_source = (unreadable->isEmpty()
                            ? tr("From the snapshots in %1.").arg(QDir::toNativeSeparators(m_folder))
                            : tr("Some snapshots could not be read: %1").arg(unreadable->join(QStringLiteral("; "))));
            redraw();
            Q_EMIT snapshotsRead();
        });
}

void HistoryPane::showSubject(Subject subject, const QByteArray& path, bool glued)
{
    if (subject == m_subject && path == m_path && glued == m_glued)
        return;
    m_subject = subject;
    m_path = path;
    m_glued = glued;
    redraw();
}

QString HistoryPane::title() const
{
    return m_title->text();
}

void HistoryPane::redraw()
{
    switch (m_subject) {
    case Subject::Keyspace:
        m_points = m_series.ofKeyspace();
        break;
    case Subject::Namespace:
        m_points = m_series.ofNamespace(m_path);
        break;
    case Subject::Pattern:
        m_points = m_series.ofPatternSubtree(m_path, m_glued);
        break;
    }
    const QString name = m_subject == Subject::Keyspace
                             ? tr("All keys")
                             : displayText(keyspace::displayBytes(m_path)) +
                                   (m_subject == Subject::Namespace ? QStringLiteral("*") : QString());
    const auto scans = [](std::size_t count) {
        return count == 1 ? tr("1 scan") : tr("%1 scans").arg(displayText(keyspace::formatCount(count)));
    };
    if (m_series.snapshots() == 0) {
        m_title->setText(isReading() ? tr("%1 — reading the snapshots…").arg(name)
                                     : tr("%1 — no scan of this server is kept yet").arg(name));
    } else if (m_points.empty()) {
        m_title->setText(tr("%1 — in none of the %2 kept (they list the biggest namespaces a few levels deep)")
                             .arg(name, scans(m_series.snapshots())));
    } else {
        m_title->setText(tr("%1 — %2 since %3")
                             .arg(name, scans(m_points.size()), CompareDialog::labelOf(m_points.front().takenAtMs)));
    }

    const bool partial =
        std::any_of(m_points.begin(), m_points.end(), [](const auto& point) { return !point.complete; });
    m_note->setText(partial
                        ? m_source + u' ' + tr("Diamonds: scans that stopped early, whose figures are lower bounds.")
                        : m_source);
    QVector<double> times[4], values[4];
    for (const history::SnapshotSeries::Point& point : m_points) {
        const int offset = point.complete ? 0 : 2;
        if (point.memoryMeasured) {
            times[offset].append(secondsOf(point.takenAtMs));
            values[offset].append(double(point.memoryBytes));
        }
        times[offset + 1].append(secondsOf(point.takenAtMs));
        values[offset + 1].append(double(point.keys));
    }
    for (int graph = 0; graph < 4; ++graph) {
        m_plot->graph(graph)->setData(times[graph], values[graph], true);
    }
    // Every snapshot's time, as a faint line in both charts: a gap in a namespace's points is a scan that did not
    // list it.
    m_plot->clearItems();
    const std::vector<std::int64_t> snapshotTimes = m_series.times();
    QColor markColour = palette().color(QPalette::Mid);
    markColour.setAlpha(110);
    for (QCPAxisRect* rect : m_plot->axisRects()) {
        for (const std::int64_t taken : snapshotTimes) {
            auto* mark = new QCPItemStraightLine(m_plot);
            mark->setClipAxisRect(rect);
            for (QCPItemPosition* end : {mark->point1, mark->point2})
                end->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            mark->point1->setCoords(secondsOf(taken), 0);
            mark->point2->setCoords(secondsOf(taken), 1);
            mark->setPen(QPen(markColour, 1, Qt::DotLine));
        }
    }
    QCPAxis* time = m_plot->axisRects().back()->axis(QCPAxis::atBottom);
    if (!snapshotTimes.empty()) {
        const double first = secondsOf(snapshotTimes.front());
        const double last = secondsOf(snapshotTimes.back());
        const double span = last - first;
        // An hour around a single scan; else a margin in proportion, and the labels as fine as the span asks.
        const double margin = span <= 0 ? 3600.0 : std::max(30.0, span * 0.08);
        time->setRange(first - margin, last + margin);
        auto* dates = static_cast<QCPAxisTickerDateTime*>(time->ticker().data());
        const double shown = span + 2 * margin;
        dates->setDateTimeFormat(shown < 3 * 3600    ? QStringLiteral("HH:mm:ss")
                                 : shown < 3 * 86400 ? QStringLiteral("d MMM\nHH:mm")
                                                     : QStringLiteral("d MMM\nyyyy"));
    }
    double memory = 0, keys = 0;
    for (const history::SnapshotSeries::Point& point : m_points) {
        memory = std::max(memory, point.memoryMeasured ? double(point.memoryBytes) : 0.0);
        keys = std::max(keys, double(point.keys));
    }
    m_plot->axisRects().front()->axis(QCPAxis::atLeft)->setRange(0, memory > 0 ? memory * 1.12 : 1.0);
    m_plot->axisRects().back()->axis(QCPAxis::atLeft)->setRange(0, keys > 0 ? keys * 1.12 : 1.0);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace keylens::ui
