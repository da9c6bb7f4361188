#include "cli/Cli.h"
#include "redis/ProcessArguments.h"

#include <QCoreApplication>

#include <csignal>

int main(int argc, char** argv)
{
    argv = keylens::redis::scrubProcessArguments(argc, argv); // first: a password leaves `ps` before anything runs
    // Past a file size limit, a write should fail (and be reported), not kill us before we can say so.
    std::signal(SIGXFSZ, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("keylens-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KEYLENS_VERSION));
    return keylens::cli::run(QCoreApplication::arguments());
}
