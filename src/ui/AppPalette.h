#pragma once

#include <QString>

namespace keylens::ui {

// `--palette dark|light`: the Fusion style with a dark or light palette, for screenshots and for
// checking that every colour of ours reads on both. Empty keeps the system's palette and style.
void applyPalette(const QString& name);

} // namespace keylens::ui
