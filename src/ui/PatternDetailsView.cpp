#include "ui/PatternDetailsView.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "lint/LibraryLayouts.h"
#include "models/DeltaCells.h"
#include "models/DisplayText.h"
#include "models/EstimatedMemory.h"
#include "models/FindingsText.h"
#include "models/PatternTreeModel.h"
#include "models/RowPresenter.h"
#include "ui/DetailsForm.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace keylens::ui {

using models::displayText;

PatternDetailsView::PatternDetailsView(QWidget* parent)
    : QWidget(parent)
{
    m_title = createDetailsTitle();
    m_form = new QFormLayout;
    m_members = addDetailsField(m_form, tr("Members"));
    m_keys = addDetailsField(m_form, tr("Keys"));
    m_memory = addDetailsField(m_form, tr("Memory"));
    m_ttl = addDetailsField(m_form, tr("With TTL"));
    m_types = addDetailsField(m_form, tr("Types"));
    m_findings = addDetailsField(m_form, tr("Findings"));
    m_library = addDetailsField(m_form, tr("Library"));
    m_examples = addDetailsField(m_form, tr("Examples"));
    m_change = addDetailsField(m_form, tr("Change"));
    m_form->setRowVisible(m_change, false);
    m_examples->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(m_form);
    layout->addStretch(1);
}

QString PatternDetailsView::fieldText(const QString& field) const
{
    return detailsFieldText(this, field);
}

void PatternDetailsView::showPattern(const models::PatternTreeModel& model, patterns::PatternTree::PatternId pattern)
{
    const patterns::PatternTree& tree = *model.tree();
    const keyspace::SubtreeTotals totals = model.totalsOf(pattern);
    const std::vector<keyspace::NodeId>& members = tree.members(pattern);
    m_title->setText(displayText(keyspace::displayBytes(tree.text(pattern))));
    m_members->setText(tr("%1 (%2 of them keys)")
                           .arg(displayText(keyspace::formatCount(members.size())),
                                displayText(keyspace::formatCount(tree.ownKeys(pattern)))));
    m_keys->setText(displayText(keyspace::formatCount(totals.keys)) + tr(" in its members' subtrees"));
    m_memory->setText(memoryWithPerKeyText(keyspace::memoryFigureOf(totals), model.memoryEstimated()));
    m_memory->setToolTip(model.memoryEstimated() ? models::estimatedMemoryNote() : QString());
    const std::optional<double> share = totals.ttlShare();
    m_ttl->setText(share ? tr("%1 keys (%2)")
                               .arg(displayText(keyspace::formatCount(totals.keysWithTtl)),
                                    displayText(keyspace::formatPercent(*share)))
                         : tr("not measured"));
    m_types->setText(totals.keys ? models::typeMix(totals) : QStringLiteral("–"));
    m_findings->setText(totals.findingCount() ? models::findingsBySeverity(totals.findings) : tr("none"));
    const QString library = [&] {
        const QModelIndex index = const_cast<models::PatternTreeModel&>(model).indexOfPattern(pattern);
        return index.data(models::TreeColumns::LibraryRole).toString();
    }();
    m_library->setText(library.isEmpty() ? tr("none recognised") : library);
    QStringList examples;
    for (const QByteArray& path : model.memberPaths(pattern, 5))
        examples << displayText(keyspace::displayBytes(path));
    m_examples->setText(examples.join(u'\n'));
    if (const models::Comparison* comparison = model.comparison()) {
        m_change->setText(models::deltaSummary(model.deltaOfPattern(pattern), comparison->label()));
        m_form->setRowVisible(m_change, true);
    } else {
        m_form->setRowVisible(m_change, false);
    }
}

} // namespace keylens::ui
