// clang-format off
#include "ui/QCustomPlotHeader.h" // first: see there
// clang-format on

#include "ui/EmptyChart.h"

#include <QFontMetrics>
#include <QStringList>

namespace keylens::ui {

namespace {

const QString NoteName = QStringLiteral("emptyNote");
const char* const FullText = "fullText";

} // namespace

bool markEmptyChart(QCustomPlot* plot, const QString& why, QCPAxis* bare, const QColor& colour)
{
    bool empty = true;
    for (int i = 0; i < plot->plottableCount() && empty; ++i) {
        if (const auto* bars = qobject_cast<QCPBars*>(plot->plottable(i)))
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd() && empty; ++it)
                empty = it->value == 0;
    }
    QList<QCPAxis*> axes;
    for (int i = 0; i < plot->plottableCount(); ++i)
        axes << plot->plottable(i)->valueAxis();
    if (bare)
        axes << bare;
    for (QCPAxis* axis : axes) {
        axis->setTicks(!empty);
        axis->setTickLabels(!empty);
    }
    for (int i = plot->itemCount() - 1; i >= 0; --i) {
        if (plot->item(i)->objectName() == NoteName)
            plot->removeItem(i); // the note of an earlier draw
    }
    if (!empty)
        return false;
    auto* note = new QCPItemText(plot);
    note->setObjectName(NoteName);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.5, 0.5);
    note->setPositionAlignment(Qt::AlignCenter);
    note->setTextAlignment(Qt::AlignCenter);
    note->setColor(colour);
    note->setProperty(FullText, why);
    note->setText(why);
    return true;
}

void fitEmptyChartNote(QCustomPlot* plot)
{
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* note = qobject_cast<QCPItemText*>(plot->item(i));
        if (!note || note->objectName() != NoteName)
            continue;
        const QFontMetrics metrics(note->font());
        const int width = plot->axisRect()->width() - note->padding().left() - note->padding().right() - 8;
        QStringList lines;
        for (const QString& word : note->property(FullText).toString().split(u' ')) {
            if (!lines.isEmpty() && metrics.horizontalAdvance(lines.back() + u' ' + word) <= width)
                lines.back() += u' ' + word;
            else
                lines << word;
        }
        note->setText(lines.join(u'\n'));
    }
}

} // namespace keylens::ui
