#pragma once

#include <QStringList>

namespace keylens::cli {

// Runs keylens-cli with its arguments (arguments[0] is the program). Needs a QCoreApplication.
int run(const QStringList& arguments);

} // namespace keylens::cli
