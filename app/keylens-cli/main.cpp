#include "cli/Cli.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("keylens-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KEYLENS_VERSION));
    return keylens::cli::run(QCoreApplication::arguments());
}
