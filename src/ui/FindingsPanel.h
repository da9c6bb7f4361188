#pragma once

#include "lint/Linter.h"
#include "models/KeyTreeModel.h"

#include <QByteArray>
#include <QIcon>
#include <QWidget>

#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace keylens::models {
class FindingGrouping;
class KeyspaceView;
struct GroupedFindings;
} // namespace keylens::models

namespace keylens::ui {

// The Findings panel: the linter's findings grouped by rule (worst first), each with its rationale,
// its fix, its counts per severity and its first examples. Activating an example asks the window to
// select that key; the "Tree shows" box narrows the key tree to the keys with findings, or with the
// selected rule's.
class FindingsPanel : public QWidget
{
    Q_OBJECT
public:
    // `keyspace`: the session's store, over which a finished scan's findings are grouped by pattern.
    explicit FindingsPanel(const models::KeyspaceView& keyspace, QWidget* parent = nullptr);
    ~FindingsPanel() override;

    // Brings the list up to date with the linter: every rule with findings, every example it keeps
    // (selection and expansion kept by rule id). The linter must stay alive until the next call. Once the scan is
    // over, each rule lists its patterns (keys, memory, library) and the examples under them.
    void showFindings(const lint::Linter& linter, bool scanRunning);
    // The rule of the selected row (or of the selected example's rule), -1 for none.
    int selectedRule() const;
    void selectRule(int rule);
    // Selects and expands the rule at the top (the worst): what a newcomer should read first.
    void openFirstRule();
    QTreeWidget* list() const { return m_list; }
    // The findings are being grouped by pattern (a big store takes slices of the GUI thread), or grouped and not yet
    // shown.
    bool isGrouping() const;
    QString headingText() const;
    // The panel's height that shows this many rows of the list (for the dock's first height).
    int heightForListRows(int rows) const;
    // What the rules could not fully check (models::ScanSession::notices), beside the list; hidden when none.
    void setNotices(const QStringList& notices);
    QString noticesText() const;
    QComboBox* treeFilterBox() const { return m_treeFilter; }

Q_SIGNALS:
    void keyActivated(const QByteArray& key);
    void treeFilterChanged(keylens::models::KeyTreeModel::FindingsFilter filter);
    // The findings are grouped by pattern: call showFindings() again to show them.
    void groupingReady();

private:
    // A rule's row: its counts, the examples it lacks, its "… more" row.
    void updateRuleRow(QTreeWidgetItem* item, const lint::RuleSummary& summary);
    static QString moreText(std::uint64_t hidden);
    // One icon per severity, shared by every row: a pixmap per row was 10 MB for the examples of a million keys.
    const QIcon& dot(int severity);
    void showRuleText();
    static std::vector<lint::RuleSummary> worstFirst(const lint::Linter& linter);
    // A rule's row: its id, rationale and index, without counts or children.
    static QTreeWidgetItem* newRuleRow(const lint::RuleSummary& summary);
    // Its severity dot, counts per severity and number of findings.
    void showRuleCounts(QTreeWidgetItem* item, const lint::RuleSummary& summary);
    // The rules whose rows are open, to open them again after the list is rebuilt or reordered.
    std::set<int> expandedRules() const;
    void expandRules(const std::set<int>& rules);
    // An example's row: its key, severity and detail; activating it selects the key.
    QTreeWidgetItem* exampleRow(const lint::Finding& finding, int rule);
    // Rule → pattern → examples, from the findings' groups (models::FindingGrouping); the heading's pattern count.
    void showGrouped(const lint::Linter& linter);
    void fillGrouped(const lint::Linter& linter, const models::GroupedFindings& grouped);
    void emitTreeFilter();

    QLabel* m_heading;
    QLabel* m_notices;
    QComboBox* m_treeFilter;
    QTreeWidget* m_list;
    QLabel* m_ruleText;
    const lint::Linter* m_shownLinter = nullptr;
    // The grouped list shows this linter's findings at this count (a rescan or a finished judgement rebuilds it).
    const lint::Linter* m_groupedLinter = nullptr;
    std::uint64_t m_groupedChanges = 0; // lint::Linter::changes() the list was grouped at
    const models::KeyspaceView& m_keyspace;
    models::FindingGrouping* m_grouping;
    std::array<QIcon, 4> m_dots; // no finding (-1), info, warning, error
};

} // namespace keylens::ui
