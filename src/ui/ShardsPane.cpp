// clang-format off
#include "ui/QCustomPlotHeader.h" // first: see there
// clang-format on

#include "ui/ShardsPane.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "ui/ChartTickers.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

namespace {

// The figures first: on a narrow pane the slot ranges, last, are what scrolls out of sight.
enum Column { Address, Keys, Memory, Share, State, Slots, ColumnCount };

QCustomPlot* newShardPlot(const QString& title)
{
    auto* plot = new QCustomPlot;
    plot->setMinimumHeight(170);
    plot->plotLayout()->insertRow(0);
    QFont font = plot->font();
    font.setBold(true);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, font));
    return plot;
}

// Horizontal bars, one per shard in slot order, and a dashed line at the even share: a bar far past it is a hot
// shard. Failed shards are grey.
void drawShardBars(QCustomPlot* plot, const std::vector<scan::ShardScan>& shards, bool memory, const QColor& colour)
{
    plot->clearPlottables();
    plot->clearItems();
    auto* bars = new QCPBars(plot->yAxis, plot->xAxis);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.7);
    bars->setBrush(colour);
    auto* failed = new QCPBars(plot->yAxis, plot->xAxis);
    failed->setPen(Qt::NoPen);
    failed->setWidth(0.7);
    failed->setBrush(QColor(0x9e, 0x9e, 0x9e));
    QSharedPointer<QCPAxisTickerText> names(new QCPAxisTickerText);
    double total = 0, top = 0;
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const double value = double(memory ? shards[i].memoryBytes : shards[i].keys);
        (shards[i].error ? failed : bars)->addData(double(i + 1), value);
        names->addTick(double(i + 1), shards[i].address);
        total += value;
        top = std::max(top, value);
    }
    plot->yAxis->setTicker(names);
    plot->yAxis->setRangeReversed(true);
    plot->yAxis->setRange(0.4, double(std::max<std::size_t>(shards.size(), 1)) + 0.6);
    plot->xAxis->setTicker(memory ? QSharedPointer<QCPAxisTicker>(new ByteTicker)
                                  : QSharedPointer<QCPAxisTicker>(new CountTicker));
    plot->xAxis->ticker()->setTickCount(3);
    plot->xAxis->setRange(0, std::max(1.0, top * 1.1));
    if (!shards.empty() && total > 0) {
        auto* even = new QCPItemStraightLine(plot);
        const double share = total / double(shards.size());
        even->point1->setCoords(share, 0);
        even->point2->setCoords(share, 1);
        even->setPen(QPen(QColor(0x55, 0x55, 0x55), 1, Qt::DashLine));
    }
    plot->replot();
}

} // namespace

ShardsPane::ShardsPane(QWidget* parent)
    : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Shard"), tr("Keys"), tr("Memory"), tr("Share"), tr("State"), tr("Slots")});
    m_table->horizontalHeaderItem(Share)->setToolTip(tr("The shard's share of the cluster's memory"));
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_memoryPlot = newShardPlot(tr("Memory per shard (dashed: an even share)"));
    m_keysPlot = newShardPlot(tr("Keys per shard"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table);
    layout->addWidget(m_memoryPlot, 1);
    layout->addWidget(m_keysPlot, 1);
}

void ShardsPane::showShards(const std::vector<scan::ShardScan>& shards, bool memoryMeasured)
{
    std::uint64_t keys = 0, memory = 0;
    for (const scan::ShardScan& shard : shards) {
        keys += shard.keys;
        memory += shard.memoryBytes;
    }
    m_table->setRowCount(int(shards.size()));
    const auto cell = [&](int row, int column, const QString& text, bool number) {
        auto* item = new QTableWidgetItem(text);
        if (number)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, column, item);
        return item;
    };
    std::size_t hottest = 0;
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const scan::ShardScan& shard = shards[i];
        const int row = int(i);
        if (shard.memoryBytes > shards[hottest].memoryBytes)
            hottest = i;
        cell(row, Address, shard.address + (shard.replica ? tr(" (replica)") : QString()), false);
        cell(row, Slots, shard.slots, false);
        cell(row, Keys, displayText(keyspace::formatCount(shard.keys)), true);
        cell(row, Memory, memoryMeasured ? displayText(keyspace::formatBytes(shard.memoryBytes)) : tr("n/a"), true);
        cell(row, Share,
             memoryMeasured && memory > 0
                 ? displayText(keyspace::formatPercent(double(shard.memoryBytes) / double(memory)))
                 : tr("n/a"),
             true);
        QTableWidgetItem* state = cell(row, State,
                                       shard.error      ? tr("failed")
                                       : shard.complete ? tr("ok")
                                                        : tr("scanning"),
                                       false);
        if (shard.error) {
            state->setForeground(QColor(0xc6, 0x28, 0x28));
            state->setToolTip(shard.error->message);
        }
    }
    // Every row shows (up to a dozen shards; more scroll), and the charts take the rest.
    const int rows = std::min<int>(int(shards.size()), 12);
    m_table->setFixedHeight(m_table->horizontalHeader()->height() +
                            rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth() + 2 +
                            m_table->horizontalScrollBar()->sizeHint().height()); // a narrow pane scrolls sideways
    QString text = tr("%1 shards, %2 keys, %3")
                       .arg(shards.size())
                       .arg(displayText(keyspace::formatCount(keys)),
                            memoryMeasured ? displayText(keyspace::formatBytes(memory)) : tr("memory n/a"));
    if (memoryMeasured && memory > 0 && !shards.empty()) {
        const double share = double(shards[hottest].memoryBytes) / double(memory);
        const double even = 1.0 / double(shards.size());
        // Past half again an even share is what a big key or a hot hash tag does to a cluster.
        if (share > even * 1.5)
            text += tr(" — %1 holds %2 of the memory (an even share is %3): look at its biggest keys")
                        .arg(shards[hottest].address, displayText(keyspace::formatPercent(share)),
                             displayText(keyspace::formatPercent(even)));
    }
    m_summary->setText(text);
    drawShardBars(m_memoryPlot, shards, true, QColor(0xd6, 0x7a, 0x45));
    drawShardBars(m_keysPlot, shards, false, QColor(0x3b, 0x7d, 0xd8));
}

QString ShardsPane::summaryText() const
{
    return m_summary->text();
}

} // namespace keylens::ui
