#include "ui/FindingsPanel.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/FindingEvidence.h"
#include "lint/Linter.h"
#include "models/DisplayText.h"
#include "models/FindingGrouping.h"
#include "models/FindingsText.h"
#include "models/KeyspaceView.h"
#include "ui/OverlayColours.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace keylens::ui {

using models::displayText;

namespace {

enum Column { RuleColumn, SeverityColumn, KeysColumn, ColumnCount };
enum Role { RuleRole = Qt::UserRole + 1, KeyRole, DetailRole, PatternRole, EvidenceRole, FixRole };
// A rule's patterns beyond these are one "… more" row: a list of thousands of patterns reads like none.
constexpr int PatternRowsPerRule = 200;
enum TreeFilter { AllKeys, KeysWithFindings, KeysOfSelectedRule };

QIcon severityDot(int severity)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(overlay::finding(severity));
    painter.drawEllipse(QRectF(1, 1, 10, 10));
    return QIcon(pixmap);
}

QString count(std::uint64_t value)
{
    return displayText(keyspace::formatCount(value));
}

int worstOf(const lint::RuleSummary& summary)
{
    return keyspace::worstSeverity(summary.bySeverity);
}

} // namespace

FindingsPanel::FindingsPanel(const models::KeyspaceView& keyspace, QWidget* parent)
    : QWidget(parent)
    , m_heading(new QLabel)
    , m_notices(new QLabel)
    , m_treeFilter(new QComboBox)
    , m_list(new QTreeWidget)
    , m_ruleText(new QLabel)
    , m_keyspace(keyspace)
    , m_grouping(new models::FindingGrouping(keyspace, this))
{
    connect(m_grouping, &models::FindingGrouping::ready, this, &FindingsPanel::groupingReady);
    // A new store: the grouped list was of the last one's findings.
    connect(&keyspace, &models::KeyspaceView::storeReplaced, this, [this] { m_groupedLinter = nullptr; });
    m_treeFilter->addItem(tr("All keys"));
    m_treeFilter->addItem(tr("Keys with findings"));
    m_treeFilter->addItem(tr("Keys of the selected rule"));
    m_treeFilter->setToolTip(tr("Which keys the key tree shows"));
    // The heading grows with the counts and the scan's state: it wraps rather than widen the window.
    m_heading->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(m_heading, 1);
    top->addWidget(new QLabel(tr("Tree shows:")));
    top->addWidget(m_treeFilter);

    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({tr("Rule / pattern / key"), tr("Severity / memory"), tr("Keys")});
    m_list->setRootIsDecorated(true);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(RuleColumn, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(SeverityColumn, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(KeysColumn, QHeaderView::ResizeToContents);

    m_ruleText->setWordWrap(true);
    m_ruleText->setTextFormat(Qt::RichText);
    m_ruleText->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_ruleText->setMargin(6);
    m_ruleText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ruleText->setMinimumWidth(220);

    m_notices->setObjectName(QStringLiteral("lintNotices"));
    m_notices->setWordWrap(true);
    m_notices->setTextFormat(Qt::PlainText);
    m_notices->setMargin(6);
    m_notices->setForegroundRole(QPalette::PlaceholderText); // a note beside the counts, not one of them
    m_notices->setVisible(false);

    // What the rules could not check sits beside the list, above a rule's text, and scrolls with it: above the list
    // its four lines at 800 px left the list two rows.
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->setSpacing(0);
    sideLayout->addWidget(m_notices);
    sideLayout->addWidget(m_ruleText);
    sideLayout->addStretch(1);
    auto* sideScroll = new QScrollArea;
    sideScroll->setWidget(side);
    sideScroll->setWidgetResizable(true);
    sideScroll->setFrameShape(QFrame::NoFrame);
    sideScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sideScroll->setMinimumWidth(m_ruleText->minimumWidth() + sideScroll->verticalScrollBar()->sizeHint().width());

    auto* split = new QSplitter;
    split->addWidget(m_list);
    split->addWidget(sideScroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        showRuleText();
        if (m_treeFilter->currentIndex() == KeysOfSelectedRule)
            emitTreeFilter();
    });
    connect(m_list, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QVariant key = item->data(RuleColumn, KeyRole);
        if (item->parent() && key.isValid())
            Q_EMIT keyActivated(key.toByteArray());
    });
    connect(m_treeFilter, &QComboBox::currentIndexChanged, this, &FindingsPanel::emitTreeFilter);
    showRuleText();
}

FindingsPanel::~FindingsPanel() = default;

void FindingsPanel::setNotices(const QStringList& notices)
{
    m_notices->setText(notices.join(QLatin1Char('\n')));
    m_notices->setVisible(!notices.isEmpty());
}

int FindingsPanel::heightForListRows(int rows) const
{
    // A row as the list lays it out once it has one, else the larger of a line of text and a severity dot.
    const int row = m_list->topLevelItemCount() > 0
                        ? m_list->sizeHintForRow(0)
                        : std::max(m_list->fontMetrics().height(), m_list->iconSize().height()) + 4;
    const QMargins margins = layout()->contentsMargins();
    return margins.top() + margins.bottom() + layout()->itemAt(0)->sizeHint().height() + layout()->spacing() +
           m_list->header()->sizeHint().height() + rows * row + 2 * m_list->frameWidth();
}

QString FindingsPanel::noticesText() const
{
    return m_notices->isVisibleTo(this) ? m_notices->text() : QString();
}

void FindingsPanel::showFindings(const lint::Linter& linter, bool scanRunning)
{
    if (!scanRunning && m_keyspace.hasStore() && linter.isFinished()) {
        showGrouped(linter);
        return;
    }
    m_groupedLinter = nullptr;
    const int selected = selectedRule();
    const std::set<int> expanded = expandedRules();

    const std::vector<lint::RuleSummary> rules = worstFirst(linter);
    // During a scan this runs once a second. A rule's examples only grow (the first ones are kept), so its
    // row is kept, moved when the order changes, and given the examples it lacks: rebuilding the list each
    // time took 20 ms of the GUI thread.
    m_list->setUpdatesEnabled(false);
    if (&linter != m_shownLinter) {
        m_list->clear();
        m_shownLinter = &linter;
    }
    std::map<int, QTreeWidgetItem*> byRule;
    while (m_list->topLevelItemCount() > 0) {
        QTreeWidgetItem* item = m_list->takeTopLevelItem(0);
        byRule[item->data(RuleColumn, RuleRole).toInt()] = item;
    }
    for (const lint::RuleSummary& summary : rules) {
        const int rule = int(lint::ruleIndex(*summary.rule));
        QTreeWidgetItem* item = byRule.count(rule) ? std::exchange(byRule[rule], nullptr) : nullptr;
        if (!item) {
            item = newRuleRow(summary);
        }
        m_list->addTopLevelItem(item);
    }
    for (auto& [rule, item] : byRule)
        delete item; // a rule without findings any more (null when moved)
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        updateRuleRow(m_list->topLevelItem(i), rules[std::size_t(i)]);
    expandRules(expanded);
    m_list->setUpdatesEnabled(true);
    if (selected >= 0)
        selectRule(selected);

    const lint::Profile& profile = linter.profile();
    m_heading->setText(
        tr("<b>%1</b> %2 in %3 %4 · profile <b>%5</b>%6")
            .arg(count(linter.findings()), linter.findings() == 1 ? tr("finding") : tr("findings"),
                 count(linter.keysLinted()), linter.keysLinted() == 1 ? tr("key") : tr("keys"),
                 profile.name.toHtmlEscaped(),
                 scanRunning ? tr(" · key rules so far; namespace rules when the scan ends") : QString()));
    showRuleText();
}

void FindingsPanel::showGrouped(const lint::Linter& linter)
{
    if (m_groupedLinter == &linter && m_groupedChanges == linter.changes())
        return; // nothing new since the list was built
    if (!m_grouping->request(linter))
        return; // groupingReady() brings the caller back
    if (const std::optional<models::GroupedFindings> grouped = m_grouping->take())
        fillGrouped(linter, *grouped);
}

bool FindingsPanel::isGrouping() const
{
    return m_grouping->isRunning();
}

void FindingsPanel::fillGrouped(const lint::Linter& linter, const models::GroupedFindings& grouped)
{
    const int selected = selectedRule();
    const std::set<int> expanded = expandedRules();
    const std::vector<lint::RuleSummary> rules = worstFirst(linter);
    m_list->setUpdatesEnabled(false);
    m_list->clear();
    m_shownLinter = nullptr; // the flat list is rebuilt from scratch if it is wanted again
    for (const lint::RuleSummary& summary : rules) {
        const int rule = int(lint::ruleIndex(*summary.rule));
        QTreeWidgetItem* item = newRuleRow(summary);
        showRuleCounts(item, summary);
        m_list->addTopLevelItem(item);
        // Its patterns, most keys first (FindingGroups' order), each with the examples the linter kept of it.
        std::map<QByteArray, QTreeWidgetItem*> byPattern;
        int patternRows = 0;
        std::uint64_t hiddenKeys = 0, hiddenPatterns = 0, ruleKeys = 0; // one finding may stand for many keys
        for (const report::FindingGroup& group : grouped.groups) {
            if (group.rule != summary.rule)
                continue;
            ruleKeys += group.keys;
            if (patternRows == PatternRowsPerRule) {
                hiddenKeys += group.keys;
                ++hiddenPatterns;
                continue;
            }
            auto* row = new QTreeWidgetItem(item);
            QString text = displayText(keyspace::displayBytes(group.pattern));
            if (group.library)
                text += QStringLiteral("  [%1]").arg(QString::fromLatin1(group.library->id));
            row->setText(RuleColumn, text);
            const QString memory = QString::fromUtf8(keyspace::formatMemory(group.memory)); // "≥ 1.2 MiB"
            row->setText(SeverityColumn, memory);
            row->setText(KeysColumn, count(group.keys));
            row->setTextAlignment(KeysColumn, Qt::AlignRight | Qt::AlignVCenter);
            row->setTextAlignment(SeverityColumn, Qt::AlignRight | Qt::AlignVCenter);
            row->setData(RuleColumn, RuleRole, rule);
            row->setData(RuleColumn, PatternRole, group.pattern);
            row->setToolTip(
                RuleColumn,
                tr("%1 keys of this pattern have this finding; their memory: %2").arg(count(group.keys), memory));
            byPattern[group.pattern] = row;
            ++patternRows;
        }
        if (patternRows > 0)
            item->setText(KeysColumn, count(ruleKeys));
        if (hiddenPatterns > 0) {
            auto* more = new QTreeWidgetItem(item);
            more->setText(RuleColumn, tr("… %1 more patterns").arg(count(hiddenPatterns)));
            more->setText(KeysColumn, count(hiddenKeys));
            more->setTextAlignment(KeysColumn, Qt::AlignRight | Qt::AlignVCenter);
            more->setData(RuleColumn, RuleRole, rule);
            more->setFlags(Qt::ItemIsEnabled);
        }
        for (const lint::Finding& finding : summary.examples) {
            const auto row = byPattern.find(grouped.patternOfExample.value(finding.key));
            if (row == byPattern.end())
                continue;
            row->second->addChild(exampleRow(finding, rule));
        }
    }
    expandRules(expanded);
    m_list->setUpdatesEnabled(true);
    if (selected >= 0)
        selectRule(selected);
    m_groupedLinter = &linter;
    m_groupedChanges = linter.changes();
    const std::uint64_t patterns = grouped.patternCount;
    const lint::Profile& profile = linter.profile();
    m_heading->setText(tr("<b>%1</b> %2 in <b>%3</b> %4 · %5 %6 · profile <b>%7</b>")
                           .arg(count(linter.findings()), linter.findings() == 1 ? tr("finding") : tr("findings"),
                                count(patterns), patterns == 1 ? tr("pattern") : tr("patterns"),
                                count(linter.keysLinted()), linter.keysLinted() == 1 ? tr("key") : tr("keys"),
                                profile.name.toHtmlEscaped()));
    showRuleText();
}

QTreeWidgetItem* FindingsPanel::newRuleRow(const lint::RuleSummary& summary)
{
    auto* item = new QTreeWidgetItem;
    item->setText(RuleColumn, QString::fromLatin1(summary.rule->id));
    item->setTextAlignment(KeysColumn, Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(RuleColumn, QString::fromUtf8(summary.rule->rationale));
    item->setData(RuleColumn, RuleRole, int(lint::ruleIndex(*summary.rule)));
    return item;
}

void FindingsPanel::showRuleCounts(QTreeWidgetItem* item, const lint::RuleSummary& summary)
{
    item->setIcon(RuleColumn, dot(worstOf(summary)));
    item->setText(SeverityColumn, models::findingsBySeverity(summary.bySeverity));
    item->setText(KeysColumn, count(summary.findings));
}

std::set<int> FindingsPanel::expandedRules() const
{
    std::set<int> expanded;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->isExpanded())
            expanded.insert(m_list->topLevelItem(i)->data(RuleColumn, RuleRole).toInt());
    }
    return expanded;
}

void FindingsPanel::expandRules(const std::set<int>& rules)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        item->setExpanded(rules.count(item->data(RuleColumn, RuleRole).toInt()) != 0);
    }
}

std::vector<lint::RuleSummary> FindingsPanel::worstFirst(const lint::Linter& linter)
{
    std::vector<lint::RuleSummary> rules = linter.summaries();
    // Worst first, then the most keys: what to fix first is at the top.
    std::stable_sort(rules.begin(), rules.end(), [](const lint::RuleSummary& a, const lint::RuleSummary& b) {
        if (worstOf(a) != worstOf(b))
            return worstOf(a) > worstOf(b);
        return a.findings > b.findings;
    });
    return rules;
}

QTreeWidgetItem* FindingsPanel::exampleRow(const lint::Finding& finding, int rule)
{
    auto* example = new QTreeWidgetItem;
    example->setText(RuleColumn, displayText(keyspace::displayBytes(finding.key)));
    example->setIcon(RuleColumn, dot(int(finding.severity)));
    example->setText(SeverityColumn, QString::fromLatin1(lint::severityName(finding.severity)));
    example->setData(RuleColumn, RuleRole, rule);
    example->setData(RuleColumn, KeyRole, finding.key);
    const QString detail = displayText(keyspace::displayBytes(finding.detail));
    example->setData(RuleColumn, DetailRole, detail);
    // What the finding rests on ("word: cache", "ttl-contrast: …"), a line each.
    QStringList evidence;
    for (const QByteArray& line : lint::evidenceOf(finding))
        evidence << displayText(keyspace::displayBytes(line));
    example->setData(RuleColumn, EvidenceRole, evidence);
    if (const QByteArrayView fix = lint::fixOf(finding); fix != QByteArrayView(finding.rule->fix))
        example->setData(RuleColumn, FixRole, QString::fromUtf8(fix)); // the rule's would be wrong for this key
    QString tip = detail.isEmpty() ? tr("Double-click or Enter to select it in the tree") : detail;
    if (!evidence.isEmpty())
        tip += QLatin1Char('\n') + tr("Evidence: %1").arg(evidence.join(QStringLiteral("; ")));
    example->setToolTip(RuleColumn, tip);
    return example;
}

const QIcon& FindingsPanel::dot(int severity)
{
    QIcon& dot = m_dots[std::size_t(std::clamp(severity + 1, 0, int(m_dots.size()) - 1))];
    if (dot.isNull())
        dot = severityDot(severity);
    return dot;
}

QString FindingsPanel::moreText(std::uint64_t hidden)
{
    return tr("… %1 more: choose \"Keys of the selected rule\" to see them all in the tree").arg(count(hidden));
}

void FindingsPanel::updateRuleRow(QTreeWidgetItem* item, const lint::RuleSummary& summary)
{
    const int rule = int(lint::ruleIndex(*summary.rule));
    showRuleCounts(item, summary);
    // The last child is the "… more" row when there is one.
    const bool hadMore =
        item->childCount() > 0 && !(item->child(item->childCount() - 1)->flags() & Qt::ItemIsSelectable);
    const int listed = item->childCount() - (hadMore ? 1 : 0);
    const std::size_t shown = summary.examples.size(); // as many as the linter keeps
    for (std::size_t i = std::size_t(listed); i < shown; ++i) {
        item->insertChild(int(i), exampleRow(summary.examples[i], rule));
    }
    const bool more = summary.findings > shown;
    if (more && !hadMore) {
        auto* row = new QTreeWidgetItem(item);
        row->setData(RuleColumn, RuleRole, rule);
        row->setFlags(Qt::ItemIsEnabled);
    } else if (!more && hadMore) {
        delete item->takeChild(item->childCount() - 1);
    }
    if (more)
        item->child(item->childCount() - 1)->setText(RuleColumn, moreText(summary.findings - shown));
}

QString FindingsPanel::headingText() const
{
    return m_heading->text();
}

int FindingsPanel::selectedRule() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    return item ? item->data(RuleColumn, RuleRole).toInt() : -1;
}

void FindingsPanel::selectRule(int rule)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        if (item->data(RuleColumn, RuleRole).toInt() == rule) {
            m_list->setCurrentItem(item);
            return;
        }
    }
}

void FindingsPanel::openFirstRule()
{
    if (QTreeWidgetItem* first = m_list->topLevelItem(0)) {
        m_list->setCurrentItem(first);
        first->setExpanded(true);
    }
}

void FindingsPanel::showRuleText()
{
    const int rule = selectedRule();
    if (rule < 0 || std::size_t(rule) >= lint::allRules().size()) {
        m_ruleText->setText(tr("Select a rule to read why it matters and how to fix it. Double-click a "
                               "key to select it in the tree."));
        return;
    }
    const lint::RuleInfo& info = lint::allRules()[std::size_t(rule)];
    QString text = tr("<b>%1</b><p><b>Why:</b> %2</p><p><b>Fix:</b> %3</p>")
                       .arg(QString::fromLatin1(info.id), QString::fromUtf8(info.rationale).toHtmlEscaped(),
                            QString::fromUtf8(info.fix).toHtmlEscaped());
    if (const QTreeWidgetItem* item = m_list->currentItem(); item && item->parent()) {
        const QString detail = item->data(RuleColumn, DetailRole).toString();
        if (!detail.isEmpty())
            text += tr("<p><b>This key:</b> %1</p>").arg(detail.toHtmlEscaped());
        if (const QStringList evidence = item->data(RuleColumn, EvidenceRole).toStringList(); !evidence.isEmpty())
            text += tr("<p><b>Evidence:</b> %1</p>").arg(evidence.join(QStringLiteral("; ")).toHtmlEscaped());
        if (const QString fix = item->data(RuleColumn, FixRole).toString(); !fix.isEmpty())
            text += tr("<p><b>Fix for this key:</b> %1</p>").arg(fix.toHtmlEscaped());
    }
    m_ruleText->setText(text);
}

void FindingsPanel::emitTreeFilter()
{
    models::KeyTreeModel::FindingsFilter filter;
    switch (m_treeFilter->currentIndex()) {
    case KeysWithFindings:
        filter.enabled = true;
        break;
    case KeysOfSelectedRule:
        filter.enabled = true;
        filter.rule = selectedRule();
        break;
    default:
        break;
    }
    Q_EMIT treeFilterChanged(filter);
}

} // namespace keylens::ui
