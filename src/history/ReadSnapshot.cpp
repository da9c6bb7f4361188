#include "history/ReadSnapshot.h"

#include "history/SnapshotFile.h"
#include "history/SnapshotOfJsonReport.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

namespace keylens::history {

std::optional<Snapshot> readSnapshotOrReport(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    QString problem;
    std::optional<Snapshot> snapshot;
    const QByteArrayView trimmed = QByteArrayView(bytes).trimmed();
    if (trimmed.startsWith('{'))
        snapshot = snapshotOfJsonReport(bytes, QFileInfo(file).lastModified().toMSecsSinceEpoch(), &problem);
    else
        snapshot = decodeSnapshot(bytes, &problem);
    if (!snapshot)
        *error = QStringLiteral("%1 cannot be compared: %2").arg(path, problem);
    return snapshot;
}

} // namespace keylens::history
