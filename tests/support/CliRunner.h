#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace keylens::test {

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Starts keylens-cli and returns while it runs, for tests that interrupt it.
inline void startCli(QProcess& process, const QStringList& arguments)
{
    process.start(QStringLiteral(KEYLENS_CLI_PATH), arguments);
    process.waitForStarted();
}

inline CliRun finishCli(QProcess& process, int timeoutMs = 60000)
{
    process.waitForFinished(timeoutMs);
    CliRun run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

// Runs the built keylens-cli with `arguments` and waits for it.
inline CliRun runCli(const QStringList& arguments,
                     const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
                     int timeoutMs = 120000)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    startCli(process, arguments);
    return finishCli(process, timeoutMs);
}

} // namespace keylens::test
