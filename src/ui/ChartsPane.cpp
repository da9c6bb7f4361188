#include "ui/ChartsPane.h"

#include "keyspace/KeyEscape.h"
#include "models/ChartJob.h"
#include "models/DisplayText.h"
#include "models/KeyspaceView.h"
#include "models/PatternTreeModel.h"
#include "ui/ChartsView.h"

#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

namespace {

constexpr qint64 LiveIntervalMs = 2000;

} // namespace

ChartsPane::ChartsPane(const models::KeyspaceView& keyspace, QWidget* parent)
    : QWidget(parent)
    , m_keyspace(keyspace)
    , m_job(new models::ChartJob(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    connect(m_job, &models::ChartJob::done, this, [this](const models::ChartData& data) {
        QString title;
        if (m_pattern && m_patterns && m_patterns->tree())
            title = displayText(keyspace::displayBytes(m_patterns->tree()->text(*m_pattern)));
        else if (m_keyspace.isCurrent(m_node) && m_node.node != keyspace::RootNode)
            title = displayText(keyspace::displayBytes(m_keyspace.path(m_node)));
        else
            title = tr("All keys");
        view()->showData(title, data, m_keyspace.fromFile());
    });
    // A walk started on the store that goes (by anything forgetStore() did not foresee) stops before it is freed: the
    // session replaces its view's store first.
    connect(&keyspace, &models::KeyspaceView::storeReplaced, this, [this] {
        m_storeGoing = false;
        m_job->cancel();
        m_stale = true;
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

void ChartsPane::showNode(models::NodeRef node)
{
    m_node = node;
    m_pattern.reset();
    m_stale = true;
}

void ChartsPane::showPattern(const models::PatternTreeModel& model, patterns::PatternTree::PatternId pattern)
{
    m_patterns = &model;
    m_pattern = pattern;
    m_stale = true;
}

void ChartsPane::forgetStore()
{
    m_storeGoing = true;
    m_job->cancel();
    m_pattern.reset();
    m_node = {};
    m_stale = true;
}

void ChartsPane::refresh(bool storeIsFinal, bool force)
{
    if (!m_keyspace.hasStore() || !isShown() || m_storeGoing)
        return;
    if (!force && !m_stale && !storeIsFinal && m_sinceCount.elapsed() < LiveIntervalMs)
        return;
    if (!force && !m_stale && m_job->isRunning())
        return;
    m_stale = false;
    m_sinceCount.restart();
    if (m_pattern && m_patterns && m_patterns->tree())
        m_job->startForPattern(*m_patterns, *m_pattern, storeIsFinal);
    else // a node of a store before this one (or none): the whole keyspace
        m_job->startForNode(m_keyspace, m_keyspace.isCurrent(m_node) ? m_node : m_keyspace.root(), storeIsFinal);
}

} // namespace keylens::ui
