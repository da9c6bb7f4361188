#pragma once

#include "usage/Command.h"

#include <QStringList>

namespace keylens::cli {

// Runs keylens-cli with its arguments (arguments[0] is the program). Needs a QCoreApplication.
int run(const QStringList& arguments);

// keylens-cli's whole interface: its commands, exit codes, environment and files. Its --help, its manual
// page and its shell completions are all rendered from this.
usage::Program program();

} // namespace keylens::cli
