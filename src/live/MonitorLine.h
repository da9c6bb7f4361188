#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <optional>
#include <vector>

namespace keylens::live {

// One line MONITOR sends: `1733469000.123456 [0 127.0.0.1:5000] "SET" "user:1" "x"` (a status reply, the `+`
// already gone). The arguments are the client's, unquoted (\" \\ \n \r \t \a \b \xHH), bytes as they were.
struct MonitorLine
{
    double timestamp = 0;
    int db = 0;
    std::vector<QByteArray> arguments;
};

// Nothing for a line that is not one (the OK that answers MONITOR itself).
std::optional<MonitorLine> parseMonitorLine(QByteArrayView line);

} // namespace keylens::live
