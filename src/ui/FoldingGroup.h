#pragma once

#include <QGroupBox>

class QFormLayout;
class QLabel;

namespace keylens::ui {

// A checkable group of form fields that folds away when unchecked (only its title shows, so a dialog stays short for
// the common case), with a problem line under its fields: the connection dialog's TLS and SSH groups.
class FoldingGroup : public QGroupBox
{
    Q_OBJECT
public:
    // A problem shown under the fields ("" clears it); what is shown, for tests.
    void showProblem(const QString& text);
    QString problem() const;

protected:
    FoldingGroup(const QString& title, QWidget* parent);
    // Where the subclass adds its rows; the problem line is added after them.
    QFormLayout* form() const { return m_form; }
    void addProblemRow();

private:
    QFormLayout* m_form;
    QLabel* m_problem;
};

} // namespace keylens::ui
