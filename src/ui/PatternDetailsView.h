#pragma once

#include "patterns/PatternTree.h"

#include <QWidget>

class QFormLayout;
class QLabel;

namespace keylens::models {
class PatternTreeModel;
}

namespace keylens::ui {

// One pattern of many members (`user:<int>:profile`): what its members hold together, and a few of them.
class PatternDetailsView : public QWidget
{
    Q_OBJECT
public:
    explicit PatternDetailsView(QWidget* parent = nullptr);

    void showPattern(const models::PatternTreeModel& model, patterns::PatternTree::PatternId pattern);
    QString fieldText(const QString& field) const;

private:
    QLabel* m_title;
    QFormLayout* m_form;
    QLabel* m_members;
    QLabel* m_keys;
    QLabel* m_memory;
    QLabel* m_ttl;
    QLabel* m_types;
    QLabel* m_findings;
    QLabel* m_library;
    QLabel* m_examples;
    QLabel* m_change; // since the scan compared with, while comparing
};

} // namespace keylens::ui
