#pragma once

#include <QString>

#include <cstdint>

class QFormLayout;
class QLabel;
class QWidget;

namespace keylens::ui {

// The parts the key and namespace panes share: a selectable bold title, and "Name: value" rows whose
// value labels carry the field's name as object name, so tests (and fieldText) can read them back.
QLabel* createDetailsTitle();
QLabel* addDetailsField(QFormLayout* form, const QString& name);
QString detailsFieldText(const QWidget* pane, const QString& name);
// A long name made to wrap in a label, which breaks only between words: a zero-width space after each delimiter
// (: / . _ - | @) and within any run of 24 characters without one. For display only: copying takes the exact bytes
// from the tree (Ctrl+C).
QString breakable(const QString& name);

// The Memory field of a namespace or a pattern: "4.96 MiB  (197 B per key)", the per-key part only with keys.
QString memoryWithPerKeyText(std::uint64_t memoryBytes, std::uint64_t keys);

} // namespace keylens::ui
