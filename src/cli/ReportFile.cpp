#include "cli/ReportFile.h"

#include "cli/ExitCode.h"
#include "cli/Output.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

namespace keylens::cli {

namespace {

// A device or a pipe is written in place: it cannot be replaced by a renamed file (nor should be: as
// root, a rename over /dev/full would replace the device node).
bool isSpecialFile(const QFileInfo& info)
{
    return info.exists() && !info.isFile() && !info.isDir();
}

} // namespace

QString checkReportDestination(const QString& path)
{
    if (path.isEmpty())
        return {};
    const QFileInfo info(path);
    if (info.isDir())
        return QStringLiteral("--output %1 is a folder, not a file").arg(path);
    if (isSpecialFile(info))
        return info.isWritable() ? QString() : QStringLiteral("--output %1 is not writable").arg(path);
    const QFileInfo folder(info.absolutePath());
    if (!folder.isDir())
        return QStringLiteral("--output: the folder %1 does not exist").arg(folder.filePath());
    if (!folder.isWritable())
        return QStringLiteral("--output: the folder %1 is not writable").arg(folder.filePath());
    return {};
}

namespace {
bool stdoutReaderGone = false;
}

bool readerWentAway()
{
    return stdoutReaderGone;
}

int writeFailed(const QString& problem)
{
    if (problem.isEmpty())
        return ExitReaderGone;
    writeStderr("keylens-cli: " + problem.toUtf8() + '\n');
    return ExitFailure;
}

bool writeToStandardOutput(const QByteArray& bytes, const QString& what, QString* problem)
{
    errno = 0;
    if (writeStdout(bytes))
        return true;
    if (errno == EPIPE) { // the reader has what it wanted (`| head`): nothing to say
        stdoutReaderGone = true;
        problem->clear();
        return false;
    }
    *problem = QStringLiteral("cannot write %1 to standard output: %2")
                   .arg(what, QString::fromLocal8Bit(std::strerror(errno ? errno : EIO)));
    return false;
}

bool writeReport(const QString& path, const QByteArray& document, QString* problem)
{
    if (path.isEmpty())
        return writeToStandardOutput(document, QStringLiteral("the report"), problem);
    if (isSpecialFile(QFileInfo(path))) {
        QFile file(path);
        if (file.open(QIODevice::WriteOnly | QIODevice::Unbuffered) && file.write(document) == document.size() &&
            file.flush()) {
            file.close();
            if (file.error() == QFileDevice::NoError)
                return true;
        }
        *problem = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    QSaveFile file(path);
    file.setDirectWriteFallback(false);
    if (!file.open(QIODevice::WriteOnly) || file.write(document) != document.size() || !file.commit()) {
        *problem = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

} // namespace keylens::cli
