#pragma once

#include <QColor>
#include <QPalette>

namespace keylens::ui {

// The colours of the overlays, in one place so the tree, the details pane and the legend agree.
// Each is translucent over the palette's base colour, so it reads on a light and a dark palette.
namespace overlay {

// Memory heat: the share of the parent's memory, from a pale amber (small) to a deep red (all of it).
QColor memoryHeat(double fraction, const QPalette& palette);
QColor bigKey();
// The tag of a library's layout (BullMQ, Sidekiq…): a neutral teal, a label and not a warning.
QColor library();
QColor missingTtl();   // no TTL where most siblings have one
QColor expiringSoon(); // within a minute
QColor expired(const QPalette& palette);
// Naming-convention findings, by the worst severity (lint::Severity's values: 0 info, 1 warning,
// 2 error): a muted slate for info, which is advice, so that warnings and errors stand out.
QColor finding(int severity);

} // namespace overlay
} // namespace keylens::ui
