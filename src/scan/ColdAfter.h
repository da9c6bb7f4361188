#pragma once

#include <QByteArrayView>

#include <cstdint>
#include <optional>

namespace keylens::scan {

// The cold threshold as people write it (90s, 12h, 7d, 1h30m; blanks around it ignored), in whole seconds; nothing
// for text that is not a duration of at least a second (idle times are whole seconds). For --cold-after and the
// window's Scan > Cold after…
std::optional<std::int64_t> parseColdAfter(QByteArrayView text);

} // namespace keylens::scan
