#pragma once

#include "usage/Command.h"

#include <QByteArray>

namespace keylens::usage {

// Shell completions for a program with subcommands: the commands, each command's options, the fixed values
// of an option (Command::choices), and file names where an option or argument takes a file.
QByteArray bashCompletion(const Program& program);
QByteArray zshCompletion(const Program& program);
QByteArray fishCompletion(const Program& program);

} // namespace keylens::usage
