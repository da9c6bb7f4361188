#pragma once

#include "keyspace/Units.h"

#include <QString>

#include <cstdint>
#include <utility>

class QFormLayout;
class QLabel;
class QWidget;

namespace keylens::ui {

// The parts the key and namespace panes share: a selectable bold title, and "Name: value" rows whose
// value labels carry the field's name as object name, so tests (and fieldText) can read them back.
QLabel* createDetailsTitle();
QLabel* addDetailsField(QFormLayout* form, const QString& name);
// Two short facts on one row ("Type: hash · listpack"), each label named as addDetailsField names one: a small
// window keeps the value table above the fold.
std::pair<QLabel*, QLabel*> addDetailsFieldPair(QFormLayout* form, const QString& rowName, const QString& first,
                                                const QString& second);
QString detailsFieldText(const QWidget* pane, const QString& name);
// A long name made to wrap in a label, which breaks only between words: a zero-width space after each delimiter
// (: / . _ - | @) and within any run of 24 characters without one. For display only: copying takes the exact bytes
// from the tree (Ctrl+C).
QString breakable(const QString& name);

// The Memory field of a namespace or a pattern: "4.96 MiB  (197 B per key)", the per-key part only with keys;
// "≈ 4.96 MiB  (197 B per key, estimated)" when the figures are an RDB file's.
QString memoryWithPerKeyText(const keyspace::MemoryFigure& figure, bool estimated = false);

} // namespace keylens::ui
