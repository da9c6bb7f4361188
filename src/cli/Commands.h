#pragma once

#include "usage/Command.h"

#include <QStringList>

namespace keylens::cli {

// Each command's interface: its parser, its --help, its part of the manual page and of the completions.
usage::Command scanCommand();
usage::Command lintCommand();
usage::Command demoCommand();
usage::Command deleteCommand();
usage::Command expireCommand();
usage::Command renameCommand();
usage::Command restoreCommand();
usage::Command diffCommand();
usage::Command watchCommand();
usage::Command profileCommand();

// arguments[0] is the program name; the command word itself is already removed.
int runScanCommand(const QStringList& arguments);
int runDemoCommand(const QStringList& arguments);
int runLintCommand(const QStringList& arguments);
int runDeleteCommand(const QStringList& arguments);
int runExpireCommand(const QStringList& arguments);
int runRenameCommand(const QStringList& arguments);
int runRestoreCommand(const QStringList& arguments);
int runDiffCommand(const QStringList& arguments);
int runWatchCommand(const QStringList& arguments);
int runProfileCommand(const QStringList& arguments);

} // namespace keylens::cli
