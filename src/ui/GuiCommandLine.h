#pragma once

#include "ui/MainWindow.h"
#include "usage/Command.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace keylens::ui {

// What `keylens` was asked to do: the connection flags of keylens-cli and redis-cli, --demo, a saved
// connection, --profile, and --screenshot for docs and tests.
// What --view takes: "tree", "patterns", "findings".
QStringList screenshotViews();

struct GuiCommand
{
    enum class Start { Welcome, Target, Demo, Saved };
    Start start = Start::Welcome;
    MainWindow::Target target;
    QString savedConnection;
    std::uint64_t demoKeys = 200'000;
    quint16 demoPort = 0; // 0: a free one
    QString screenshotFile;
    QByteArray selectPath;
    QString view;        // with --screenshot: one of screenshotViews()
    QString lintProfile; // --profile: a built-in name or a profile file, checked to load
    QSize windowSize{1280, 800};
    QString palette; // "dark", "light" or empty for the system's
};

struct GuiCommandResult
{
    std::optional<GuiCommand> command;
    int exitCode =
        0; // when there is no command: 0 after --help/--version, 2 on a usage error, 3 for a URI we cannot open
    QString output;  // what to print (help, version, or the error)
    QString warning; // for stderr, whatever happens next (a password given on the command line)
};

GuiCommandResult parseGuiCommandLine(const QStringList& arguments);

// keylens's interface: its options, exit codes, environment and files. --help and the manual page are
// rendered from it.
usage::Program guiProgram();

} // namespace keylens::ui
