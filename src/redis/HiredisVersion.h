#pragma once

#include <QString>

namespace keylens::redis {

// The hiredis version the client was built with ("0.14.1"), for --version and bug reports.
QString hiredisVersion();

} // namespace keylens::redis
