#pragma once

#include <QStringList>

namespace keylens::cli {

// arguments[0] is the program name; the command word itself is already removed.
int runScanCommand(const QStringList& arguments);
int runDemoCommand(const QStringList& arguments);
int runLintCommand(const QStringList& arguments);

} // namespace keylens::cli
