#include "redis/ProcessArguments.h"
#include "ui/AppPalette.h"
#include "ui/GuiCommandLine.h"
#include "ui/MainWindow.h"
#include "ui/Translations.h"

#include <QApplication>
#include <QSettings>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace {

void nameTheApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("keylens"));
    QCoreApplication::setOrganizationName(QStringLiteral("keylens"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KEYLENS_VERSION));
}

// Prints what the command line asked for (--help, --version) or its error, and returns `exitCode`; 1 when the
// help or version could not be written (stdout on /dev/full, a closed pipe): a help that went nowhere is no success.
int printParsed(const keylens::ui::GuiCommandResult& parsed, int exitCode)
{
    std::FILE* stream = parsed.exitCode == 0 ? stdout : stderr;
    const QByteArray text = parsed.output.toUtf8();
    errno = 0;
    const bool written = std::fwrite(text.constData(), 1, std::size_t(text.size()), stream) == std::size_t(text.size());
    if ((!written || std::fflush(stream) != 0) && stream == stdout) {
        std::fprintf(stderr, "keylens: cannot write to standard output: %s\n", std::strerror(errno ? errno : EIO));
        return 1;
    }
    return exitCode;
}

} // namespace

int main(int argc, char** argv)
{
    argv = keylens::redis::scrubProcessArguments(argc, argv); // first: a password leaves `ps` before anything runs
    // The command line is read before there is a display to connect to: --help, --version and a usage error print
    // and leave without one (over ssh, in CI, in a package's check), and never abort on "could not connect to display".
    keylens::ui::GuiCommandResult parsed;
    {
        QCoreApplication probe(argc, argv);
        nameTheApplication();
        keylens::ui::installTranslations(QLocale::system(), keylens::ui::translationDirectories());
        parsed = keylens::ui::parseGuiCommandLine(QCoreApplication::arguments());
    }
    if (!parsed.warning.isEmpty())
        std::fprintf(stderr, "keylens: %s\n", qPrintable(parsed.warning));
    if (!parsed.command)
        return printParsed(parsed, parsed.exitCode);

    QApplication app(argc, argv);
    nameTheApplication();
    keylens::ui::installTranslations(QLocale::system(), keylens::ui::translationDirectories());
    const keylens::ui::GuiCommand& command = *parsed.command;
    keylens::ui::applyPalette(command.palette);

    QSettings settings;
    keylens::ui::MainWindow window(&settings);
    if (!command.screenshotFile.isEmpty()) {
        window.resize(command.windowSize);
        window.requestScreenshot(command.screenshotFile, command.selectPath, command.view);
    }
    window.setLintProfileOverride(command.lintProfile);
    if (command.target.exactMemory)
        window.measureCollectionsWhole();
    window.show();
    switch (command.start) {
    case keylens::ui::GuiCommand::Start::Demo:
        window.startDemo(command.demoKeys, command.target, command.demoPort);
        break;
    case keylens::ui::GuiCommand::Start::Target:
        window.connectTo(command.target);
        break;
    case keylens::ui::GuiCommand::Start::Saved:
        window.openSavedConnection(command.savedConnection);
        break;
    case keylens::ui::GuiCommand::Start::Welcome:
        break; // the welcome page shows, with the connections, the local server and the demo
    }
    return QApplication::exec();
}
