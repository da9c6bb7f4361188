#pragma once

#include <QColor>
#include <QPalette>

namespace keylens::ui {

// The colours of the overlays, in one place so the tree, the details pane and the legend agree.
// Each is translucent over the palette's base colour, so it reads on a light and a dark palette.
namespace overlay {

// Memory heat: the share of the whole keyspace's memory, on a log scale from a pale amber (0.1% and less) to a
// deep red (half of it and more), so that 0.1%, 1%, 10% and 50% look apart. (Of the parent's, a namespace with one
// child was always red, however small.)
QColor memoryHeat(double shareOfTotal, const QPalette& palette);
QColor bigKey();
// The tag of a library's layout (BullMQ, Sidekiq…): a neutral teal, a label and not a warning.
QColor library();
// The KEY tag of a namespace row that is a key too: a quiet blue, a label like the library's.
QColor keyAndNamespace();
QColor missingTtl();   // no TTL where most siblings have one
QColor expiringSoon(); // within a minute
QColor expired(const QPalette& palette);
// Memory nothing has read past the cold threshold: an icy cyan, apart from the TTL blues.
QColor cold();
// The live Writes/s sparkline: a green apart from the growth red and the memory heat, a pulse and not a warning,
// readable on the palette's base.
QColor writes(const QPalette& palette);
// Naming-convention findings, by the worst severity (lint::Severity's values: 0 info, 1 warning,
// 2 error): a muted slate for info, which is advice, so that warnings and errors stand out.
QColor finding(int severity);
// Text that says something failed (a refused password, a server that does not answer): the error finding's red,
// darker on a light palette and lighter on a dark one so that it stays readable.
QColor errorText(const QPalette& palette);
// A change since an earlier scan: more memory or keys is the error red (what grew is what one looks for), less a
// green; readable on the palette's base, as errorText.
QColor growth(const QPalette& palette);
QColor shrinkage(const QPalette& palette);
// The charts' series: counts of keys blue, memory orange, in every chart alike.
QColor keysSeries();
QColor memorySeries();

} // namespace overlay
} // namespace keylens::ui
