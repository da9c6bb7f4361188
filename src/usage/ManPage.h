#pragma once

#include "usage/Command.h"

#include <QByteArray>

namespace keylens::usage {

// The program's manual page, section 1, in roff (man(7) macros): name, synopsis, description, every
// command with its options, the shared option groups, exit status, environment, files, examples.
// `date` goes in the title line ("2026-12-03"); pass a fixed one for a reproducible page.
QByteArray manPage(const Program& program, const QString& version, const QString& date);

} // namespace keylens::usage
