#pragma once

#include <QDialog>

namespace keylens::ui {

// What the tree's colours mean (View > Legend).
class LegendDialog : public QDialog
{
    Q_OBJECT
public:
    explicit LegendDialog(QWidget* parent = nullptr);
};

} // namespace keylens::ui
