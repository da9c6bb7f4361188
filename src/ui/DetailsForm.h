#pragma once

#include <QString>

class QFormLayout;
class QLabel;
class QWidget;

namespace keylens::ui {

// The parts the key and namespace panes share: a selectable bold title, and "Name: value" rows whose
// value labels carry the field's name as object name, so tests (and fieldText) can read them back.
QLabel* createDetailsTitle();
QLabel* addDetailsField(QFormLayout* form, const QString& name);
QString detailsFieldText(const QWidget* pane, const QString& name);

} // namespace keylens::ui
