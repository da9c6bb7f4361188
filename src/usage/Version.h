#pragma once

#include <QList>
#include <QPair>
#include <QString>

namespace keylens::usage {

// What --version prints: the program and its version, the commit it was built from, and the libraries it runs
// on (Qt as it runs and as it was built against, then `libraries`: {"hiredis", "0.14.1"}), for bug reports.
QString versionText(const QString& program, const QList<QPair<QString, QString>>& libraries);

// The commit the build was made from ("3f2a9c1e07b2", with "-modified" for uncommitted changes).
QString gitCommit();

} // namespace keylens::usage
