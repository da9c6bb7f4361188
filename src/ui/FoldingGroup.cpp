#include "ui/FoldingGroup.h"

#include "ui/CredentialsDialog.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace keylens::ui {

FoldingGroup::FoldingGroup(const QString& title, QWidget* parent)
    : QGroupBox(title, parent)
    , m_problem(createFieldProblemLabel())
{
    setCheckable(true);
    setChecked(false);
    auto* fields = new QWidget;
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(fields);
    fields->setVisible(false);
    connect(this, &QGroupBox::toggled, fields, &QWidget::setVisible);
    m_form = new QFormLayout(fields);
}

void FoldingGroup::addProblemRow()
{
    m_form->addRow(QString(), m_problem);
}

void FoldingGroup::showProblem(const QString& text)
{
    showFieldProblem(m_problem, text);
}

QString FoldingGroup::problem() const
{
    return m_problem->isVisibleTo(this) ? m_problem->text() : QString();
}

} // namespace keylens::ui
