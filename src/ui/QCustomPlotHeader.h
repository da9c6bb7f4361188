#pragma once

// qcustomplot.h uses Qt's keywords and foreach, which this project turns off (QT_NO_KEYWORDS,
// QT_NO_FOREACH): a file that includes it is compiled with them on (src/ui/CMakeLists.txt), includes this
// first, and has them taken away again right after, before any of our headers (`slots` is a name there).
// Include it from .cpp files alone: it is seven thousand lines.
#include <qcustomplot.h>

#undef signals
#undef slots
#undef emit
#undef foreach
