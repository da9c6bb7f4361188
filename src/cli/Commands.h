#pragma once

#include <QStringList>

namespace keylens::cli {

// arguments[0] is the program name; the command word itself is already removed.
int runScanCommand(const QStringList& arguments);
int runDemoCommand(const QStringList& arguments);
int runLintCommand(const QStringList& arguments);
int runDeleteCommand(const QStringList& arguments);
int runExpireCommand(const QStringList& arguments);
int runRenameCommand(const QStringList& arguments);
int runRestoreCommand(const QStringList& arguments);

} // namespace keylens::cli
