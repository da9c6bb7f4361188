#include "ui/ChartsPane.h"

#include "keyspace/KeyEscape.h"
#include "models/ChartJob.h"
#include "models/DisplayText.h"
#include "models/PatternTreeModel.h"
#include "ui/ChartsView.h"

#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

namespace {

constexpr qint64 LiveIntervalMs = 2000;

} // namespace

ChartsPane::ChartsPane(QWidget* parent)
    : QWidget(parent)
    , m_job(new models::ChartJob(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    connect(m_job, &models::ChartJob::done, this, [this](const models::ChartData& data) {
        QString title;
        if (m_pattern && m_patterns && m_patterns->tree())
            title = displayText(keyspace::displayBytes(m_patterns->tree()->text(*m_pattern)));
        else if (m_store && m_node != keyspace::Keyspace::root())
            title = displayText(keyspace::displayBytes(m_store->path(m_node)));
        else
            title = tr("All keys");
        view()->showData(title, data);
    });
    m_sinceCount.start();
}

ChartsPane::~ChartsPane() = default;

ChartsView* ChartsPane::view()
{
    if (!m_view) {
        m_view = new ChartsView;
        layout()->addWidget(m_view);
    }
    return m_view;
}

void ChartsPane::showEvent(QShowEvent* event)
{
    view();
    QWidget::showEvent(event);
}

bool ChartsPane::isShown() const
{
    return isVisible();
}

void ChartsPane::showNode(const keyspace::Keyspace& store, keyspace::NodeId node)
{
    m_store = &store;
    m_node = node == keyspace::InvalidNode ? keyspace::Keyspace::root() : node;
    m_pattern.reset();
    m_stale = true;
}

void ChartsPane::showPattern(const models::PatternTreeModel& model, patterns::PatternTree::PatternId pattern)
{
    m_store = model.keyspace();
    m_patterns = &model;
    m_pattern = pattern;
    m_stale = true;
}

void ChartsPane::forgetStore()
{
    m_job->cancel();
    m_store = nullptr;
    m_pattern.reset();
    m_node = keyspace::Keyspace::root();
    m_stale = true;
}

void ChartsPane::refresh(bool storeIsFinal, bool force)
{
    if (!m_store || !isShown())
        return;
    if (!force && !m_stale && !storeIsFinal && m_sinceCount.elapsed() < LiveIntervalMs)
        return;
    if (!force && !m_stale && m_job->isRunning())
        return;
    m_stale = false;
    m_sinceCount.restart();
    const keyspace::Keyspace& store = *m_store;
    if (m_pattern && m_patterns && m_patterns->tree()) {
        // A pattern's bars are its child patterns: the members' children grouped by their pattern.
        const patterns::PatternTree* tree = m_patterns->tree();
        m_job->start(
            store, tree->members(*m_pattern),
            [&store, tree](keyspace::NodeId child) {
                return child < tree->foldedNodes()
                           ? displayText(keyspace::displayBytes(tree->label(tree->patternOf(child))))
                           : displayText(keyspace::displayBytes(store.segment(child)));
            },
            storeIsFinal);
        return;
    }
    if (m_node >= store.nodeCount())
        m_node = keyspace::Keyspace::root();
    m_job->start(
        store, {m_node},
        [&store](keyspace::NodeId child) { return displayText(keyspace::displayBytes(store.segment(child))); },
        storeIsFinal);
}

} // namespace keylens::ui
