#include "usage/Version.h"

#include "GitCommit.h" // generated at each build by cmake/GitCommit.cmake

#include <QtGlobal>

namespace keylens::usage {

QString gitCommit()
{
    return QStringLiteral(KEYLENS_GIT_COMMIT);
}

QString versionText(const QString& program, const QList<QPair<QString, QString>>& libraries)
{
    QString text = QStringLiteral("%1 %2 (commit %3)\n").arg(program, QStringLiteral(KEYLENS_VERSION), gitCommit());
    text +=
        QStringLiteral("Qt %1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
    for (const auto& [name, version] : libraries)
        text += QStringLiteral(", %1 %2").arg(name, version);
    return text + u'\n';
}

} // namespace keylens::usage
