#include "ui/TreemapPane.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/SubtreeTotals.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "models/KeyspaceView.h"
#include "ui/TreemapView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

TreemapPane::TreemapPane(const models::KeyspaceView& keyspace, QWidget* parent)
    : QWidget(parent)
    , m_keyspace(keyspace)
    , m_view(new TreemapView(keyspace))
    , m_back(new QToolButton)
    , m_where(new QLabel)
    , m_colouring(new QComboBox)
{
    m_back->setText(tr("Back"));
    m_back->setToolTip(tr("Up one level (double-click a namespace to go into it)"));
    m_colouring->addItem(tr("Colour by top-level namespace"));
    m_colouring->addItem(tr("Colour by worst finding"));
    m_colouring->addItem(tr("Colour by cold memory"));
    m_colouring->setItemData(2,
                             tr("The share of each tile's memory that nothing has read past the cold threshold "
                                "(Scan > Measure idle times): ice is cold, sand is read"),
                             Qt::ToolTipRole);
    // Neither the header's sentence nor the combo's longest item may hold the window wide (800 px screens).
    m_where->setMinimumWidth(1);
    m_colouring->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_colouring->setMinimumContentsLength(12);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_back);
    bar->addWidget(m_where, 1);
    bar->addWidget(m_colouring);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_back, &QToolButton::clicked, m_view, &TreemapView::back);
    connect(m_colouring, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_view->setColouring(index == 3   ? TreemapView::Colouring::Growth
                             : index == 2 ? TreemapView::Colouring::Cold
                             : index == 1 ? TreemapView::Colouring::WorstFinding
                                          : TreemapView::Colouring::TopLevel);
    });
    connect(m_view, &TreemapView::shownNodeChanged, this, &TreemapPane::updateHeader);
    m_sinceLayout.start();
    updateHeader();
}

void TreemapPane::setGrowth(std::function<models::RowDelta(std::uint32_t id)> deltaOf)
{
    const bool comparing = bool(deltaOf);
    m_view->setGrowth(std::move(deltaOf));
    constexpr int GrowthItem = 3;
    if (comparing) {
        if (m_colouring->count() <= GrowthItem)
            m_colouring->addItem(tr("Colour by growth"));
        m_colouring->setItemData(GrowthItem,
                                 tr("Since the scan compared with: red grew, green shrank, grey not "
                                    "listed then"),
                                 Qt::ToolTipRole);
        m_colouring->setCurrentIndex(GrowthItem);
    } else if (m_colouring->count() > GrowthItem) {
        if (m_colouring->currentIndex() == GrowthItem)
            m_colouring->setCurrentIndex(0);
        m_colouring->removeItem(GrowthItem);
    }
}

void TreemapPane::refresh(bool force)
{
    if (!force && (!isVisible() || m_sinceLayout.elapsed() < 1000))
        return;
    m_sinceLayout.restart();
    m_view->invalidate();
    updateHeader();
}

void TreemapPane::updateHeader()
{
    m_back->setEnabled(m_view->hasStore() && m_view->shownNode() != keyspace::RootNode);
    if (!m_view->hasStore()) {
        m_where->clear();
        return;
    }
    const keyspace::SubtreeTotals totals = m_view->shownTotals();
    const QString where = m_view->shownName();
    m_where->setText(tr("<b>%1</b> — %2 in %3 keys; area is memory")
                         .arg(where.toHtmlEscaped(),
                              models::estimatedFigure(displayText(keyspace::formatBytes(totals.memoryBytes)),
                                                      m_keyspace.memoryEstimated()),
                              displayText(keyspace::formatCount(totals.keys))));
}

} // namespace keylens::ui
