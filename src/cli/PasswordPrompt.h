#pragma once

#include <QByteArray>

#include <optional>

namespace keylens::cli {

// --askpass: asks on the terminal without echoing, or reads the first line of stdin when it is not a terminal (a
// password piped in by a script). Nothing when stdin ends first.
std::optional<QByteArray> askPasswordOnTerminal();

} // namespace keylens::cli
